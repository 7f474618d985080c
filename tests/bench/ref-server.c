/*
 * ref-server.c -- the reference line server: as fast as a minimal C server
 * on epoll can answer lines, the ceiling tttd's ping throughput is divided
 * by.
 *
 *	ref-server [--relay] PORT
 *
 * Listens on 127.0.0.1:PORT (0 picks a free port), prints
 * "ref-server listening on 127.0.0.1:PORT", and answers every complete
 * line (anything up to an LF) with "OK PONG\r\n" until SIGTERM or SIGINT.
 *
 * --relay: the same, and connections pair up in the order they arrive;
 * each line is answered to its sender and told to the sender's partner
 * ("OK PONG\r\n" too), and a pair's first connection is told once when
 * the second arrives.  That is a tttd move at its barest (one read, a
 * write to each player), the ceiling for game throughput.
 * Level-triggered epoll, nonblocking sockets, one read and one write per
 * batch of lines, no allocation per connection: the replies owed are a
 * byte count, written from a buffer of replies laid end to end.
 */
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REF_REPLY	"OK PONG\r\n"
#define REF_REPLY_LEN	(sizeof REF_REPLY - 1)
#define REF_REPLIES	4096		/* replies in the write buffer */
#define REF_OWED_MAX	(1 << 20)	/* owed bytes that pause reading */
#define REF_EVENTS	1024
#define REF_READ_MAX	65536
#define REF_PAUSE_MS	100		/* accept paused when out of fds */

/* One connection, indexed by its descriptor. */
struct ref_conn {
	uint64_t	owed;		/* reply bytes not yet written */
	uint8_t		phase;		/* where in a reply the next byte is */
	uint8_t		open;
	uint8_t		watch;		/* enum ref_watch */
	int		mate;		/* --relay: the partner's fd + 1 */
};

enum ref_watch {
	REF_WATCH_IN = 0,	/* nothing owed */
	REF_WATCH_BOTH,		/* replies stuck: room to write, and input */
	REF_WATCH_OUT		/* a lot stuck: room to write only */
};

static volatile sig_atomic_t ref_stopped;
static int	ref_relay;
static int	ref_unpaired = -1;	/* --relay: the fd waiting for a mate */
static char	ref_replies[REF_REPLIES * REF_REPLY_LEN];

static void	ref_stop_cb(int);
static int	ref_listen(int);
static void	ref_accept(int, int, struct ref_conn *, int);
static void	ref_pair(int, int, struct ref_conn *);
static void	ref_close(int, struct ref_conn *, struct ref_conn *);
static void	ref_watch(int, int, struct ref_conn *);
static void	ref_flush(int, int, struct ref_conn *);
static void	ref_read(int, int, struct ref_conn *);
static void	ref_owe(int, int, struct ref_conn *, uint64_t);
static int	ref_fd_limit(void);
static void	ref_loop(int, int, struct ref_conn *, int);

/* SIGTERM or SIGINT: stop. */
static void
ref_stop_cb(int sig)
{
	(void)sig;
	ref_stopped = 1;
}

/* The listening socket on 127.0.0.1:port, nonblocking; -1 on failure. */
static int
ref_listen(int port)
{
	struct sockaddr_in	sin;
	int			fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return (-1);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(fd, SOMAXCONN) == -1) {
		close(fd);
		return (-1);
	}
	return (fd);
}

/* Take every pending connection; errno says why it stopped. */
static void
ref_accept(int ep, int lfd, struct ref_conn *conns, int nconns)
{
	struct epoll_event	ev;
	int			fd, one = 1;

	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd == -1)
			return;
		if (fd >= nconns) {
			close(fd);
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		memset(&conns[fd], 0, sizeof conns[fd]);
		conns[fd].open = 1;
		memset(&ev, 0, sizeof ev);
		ev.events = EPOLLIN;
		ev.data.fd = fd;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == -1)
			ref_close(fd, &conns[fd], conns);
		else if (ref_relay)
			ref_pair(ep, fd, conns);
	}
}

/* --relay: pair a new connection, or keep it waiting for the next one. */
static void
ref_pair(int ep, int fd, struct ref_conn *conns)
{
	int	first = ref_unpaired;

	if (first == -1) {
		ref_unpaired = fd;
		return;
	}
	ref_unpaired = -1;
	conns[first].mate = fd + 1;
	conns[fd].mate = first + 1;
	ref_owe(ep, first, conns, 1);		/* its turn */
}

/*
 * Close a connection (epoll forgets it with its last descriptor); its
 * partner plays on alone.
 */
static void
ref_close(int fd, struct ref_conn *c, struct ref_conn *conns)
{
	if (c->mate != 0)
		conns[c->mate - 1].mate = 0;
	if (ref_unpaired == fd)
		ref_unpaired = -1;
	memset(c, 0, sizeof *c);
	close(fd);
}

/*
 * Wait for input, and for room to write while replies are stuck; with a
 * lot stuck, stop reading until the peer reads.
 */
static void
ref_watch(int ep, int fd, struct ref_conn *c)
{
	static const uint32_t	 events[] = {
		EPOLLIN, EPOLLIN | EPOLLOUT, EPOLLOUT
	};
	struct epoll_event	 ev;
	enum ref_watch		 want = REF_WATCH_IN;

	if (c->owed > REF_OWED_MAX)
		want = REF_WATCH_OUT;
	else if (c->owed > 0)
		want = REF_WATCH_BOTH;
	if (want == c->watch)
		return;
	c->watch = (uint8_t)want;
	memset(&ev, 0, sizeof ev);
	ev.events = events[want];
	ev.data.fd = fd;
	epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
}

/*
 * Write the replies owed, in one write when they fit the buffer; what the
 * socket refuses waits for EPOLLOUT.
 */
static void
ref_flush(int ep, int fd, struct ref_conn *conns)
{
	struct ref_conn	*c = &conns[fd];
	size_t		 room = sizeof ref_replies - REF_REPLY_LEN, len;
	ssize_t		 n;

	while (c->owed > 0) {
		len = c->owed < room ? (size_t)c->owed : room;
		n = write(fd, ref_replies + c->phase, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			break;
		if (n <= 0) {
			ref_close(fd, c, conns);
			return;
		}
		c->owed -= (uint64_t)n;
		c->phase = (uint8_t)((c->phase + (size_t)n) % REF_REPLY_LEN);
		if ((size_t)n < len)
			break;
	}
	ref_watch(ep, fd, c);
}

/* Owe a connection n more replies, and write them. */
static void
ref_owe(int ep, int fd, struct ref_conn *conns, uint64_t n)
{
	conns[fd].owed += n * REF_REPLY_LEN;
	ref_flush(ep, fd, conns);
}

/*
 * Readable: count the LFs, owe a reply for each, write them (and, with
 * --relay, as many to the partner).
 */
static void
ref_read(int ep, int fd, struct ref_conn *conns)
{
	static char	 buf[REF_READ_MAX];
	const char	*p, *end;
	ssize_t		 n;
	uint64_t	 lines = 0;
	int		 mate;

	n = read(fd, buf, sizeof buf);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		ref_close(fd, &conns[fd], conns);
		return;
	}
	end = buf + n;
	for (p = buf; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		lines++;
	mate = conns[fd].mate;
	ref_owe(ep, fd, conns, lines);
	if (mate != 0 && lines > 0 && conns[mate - 1].open)
		ref_owe(ep, mate - 1, conns, lines);
}

/* Raise the descriptor limit to the hard limit; the table's size. */
static int
ref_fd_limit(void)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return (1024);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur > 1048576)
		rl.rlim_cur = 1048576;
	return ((int)rl.rlim_cur);
}

/*
 * The event loop, until a signal: accept, read, write.  When accept runs
 * out of descriptors the listener leaves the epoll set for a moment, else
 * level-triggered epoll would report it again at once, forever.
 */
static void
ref_loop(int ep, int lfd, struct ref_conn *conns, int nconns)
{
	struct epoll_event	evs[REF_EVENTS], lev;
	int			n, i, fd, paused = 0;

	memset(&lev, 0, sizeof lev);
	lev.events = EPOLLIN;
	lev.data.fd = lfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &lev);
	while (!ref_stopped) {
		n = epoll_wait(ep, evs, REF_EVENTS, paused ? REF_PAUSE_MS : -1);
		if (paused) {
			paused = 0;
			epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &lev);
		}
		for (i = 0; i < n; i++) {
			fd = evs[i].data.fd;
			if (fd == lfd) {
				ref_accept(ep, lfd, conns, nconns);
				if (errno == EMFILE || errno == ENFILE) {
					epoll_ctl(ep, EPOLL_CTL_DEL, lfd, NULL);
					paused = 1;
				}
				continue;
			}
			if (evs[i].events & EPOLLOUT)
				ref_flush(ep, fd, conns);
			if (conns[fd].open &&
			    (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
				ref_read(ep, fd, conns);
		}
	}
}

int
main(int argc, char **argv)
{
	struct sockaddr_in	 sin;
	socklen_t		 slen = sizeof sin;
	struct sigaction	 sa;
	struct ref_conn		*conns;
	char			*end;
	long			 port;
	int			 ep, lfd, nconns;
	size_t			 off;

	if (argc == 3 && strcmp(argv[1], "--relay") == 0) {
		ref_relay = 1;
		argv++;
		argc--;
	}
	if (argc != 2 || (port = strtol(argv[1], &end, 10), *end != '\0') ||
	    end == argv[1] || port < 0 || port > 65535) {
		fprintf(stderr, "usage: ref-server [--relay] PORT\n");
		return (1);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ref_stop_cb;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	for (off = 0; off < sizeof ref_replies; off += REF_REPLY_LEN)
		memcpy(ref_replies + off, REF_REPLY, REF_REPLY_LEN);
	nconns = ref_fd_limit();
	if ((conns = calloc((size_t)nconns, sizeof *conns)) == NULL) {
		fprintf(stderr, "ref-server: out of memory\n");
		return (1);
	}
	if ((lfd = ref_listen((int)port)) == -1 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &slen) == -1) {
		fprintf(stderr, "ref-server: 127.0.0.1:%ld: %s\n", port,
		    strerror(errno));
		return (1);
	}
	if ((ep = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		fprintf(stderr, "ref-server: epoll: %s\n", strerror(errno));
		return (1);
	}
	printf("ref-server listening on 127.0.0.1:%d\n", ntohs(sin.sin_port));
	fflush(stdout);
	ref_loop(ep, lfd, conns, nconns);
	close(ep);
	close(lfd);
	free(conns);
	return (0);
}
