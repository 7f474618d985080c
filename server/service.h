/*
 * service.h -- a service beside the world (the cluster, --redis; none
 * when tttd is alone), as the daemon drives it: the service listens to
 * the world's events itself (lobby_listen), and gives the daemon this.
 */
#ifndef SERVICE_H
#define SERVICE_H

struct client;

struct service {
	/* Begin (connect, arm its timers): 0, or -1 when it cannot. */
	int	(*start)(void *);
	/* The end of a callback: what the world changed, out; or NULL. */
	void	(*flush)(void *);
	/* A connection is freed: forget what was kept of its client. */
	void	(*forget)(void *, struct client *);
	/*
	 * The daemon stops: 1 when done(its arg) will be called once the
	 * service's last write is taken, 0 when there is none to wait for.
	 */
	int	(*shutdown)(void *, void (*)(void *), void *);
	void	(*free)(void *);
	void	*arg;
};

#endif /* SERVICE_H */
