/*
 * cluster-int.h -- what the parts of the cluster share (cluster.c: the
 * node and its link; cluster-base.c: messages out, this node's players'
 * entries; cluster-queue.c: the shared queue; cluster-seat.c: remote
 * seats and relayed players; cluster-ask.c: what is on another node).
 * docs/cluster.md has the design.
 */
#ifndef CLUSTER_INT_H
#define CLUSTER_INT_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include <event2/util.h>
#include <hiredis/hiredis.h>

#include "cluster.h"
#include "keytab.h"
#include "rlink.h"

struct event;
struct evbuffer;
struct rlink;

/* A player connected to another node, seated in a match here. */
struct cluster_remote {
	struct client		 c;		/* first: the ops find it */
	struct cluster		*cl;
	char			 home[CLUSTER_INST_LEN + 1];
	uint64_t		 home_id;	/* its client's id there */
	struct keytab_entry	 entry;		/* cl->remotes */
	struct event		*timer;		/* its clocks, its freeing */
	struct evbuffer		*out;		/* lines not yet published */
	int			 dirty;
	uint64_t		 save_seq;	/* its lines wait for this save
						   of its match to be taken */
	int			 done;		/* closed, handed back or lost:
						   nothing more to its node */
	uint64_t		 in_seq;	/* its node's last item run here */
	uint64_t		 acked;		/* ... told to its node (in L) */
	unsigned		 holds;		/* its lines wait (a rated
						   game's record), counted */
	TAILQ_ENTRY(cluster_remote) dirty_entry;
	TAILQ_ENTRY(cluster_remote) all_entry;
};
TAILQ_HEAD(cluster_remote_list, cluster_remote);

#define CLUSTER_KEPT_MAX	128	/* relayed items kept, unanswered */
#define CLUSTER_NAMES_MAX	64	/* nodes named in the log */
#define CLUSTER_SLOW_MS		1000	/* a relayed line unanswered this
					   long: its player is told */
#define CLUSTER_SLOW_TEXT	"Waiting for your match's server to answer..."
/* What cluster_relay_back does with the items kept. */
#define CLUSTER_KEPT_DROP	0	/* nothing: the player is closed */
#define CLUSTER_KEPT_REFUSE	1	/* refused (cluster_relay_settle) */

/* The scripts run per match: by their SHA once Redis has them. */
enum {
	CLUSTER_LUA_SAVE,
	CLUSTER_LUA_DROP,
	CLUSTER_LUA_ADOPT,
	CLUSTER_NLUA
};
struct cluster_lua {
	const char	*text;
	char		 sha[41];	/* "" until SCRIPT LOAD answered */
};

/* SIGUSR2: a node hands its matches to the others, then ends. */
enum cluster_drain {
	CLUSTER_DRAIN_NONE = 0,
	CLUSTER_DRAIN_SAVING,		/* its last saves answered, then ... */
	CLUSTER_DRAIN_GIVEN,		/* ... orphaned: taken up by the others */
	CLUSTER_DRAIN_DONE
};

/* A player connected here: posted to the queue, or relayed elsewhere. */
struct cluster_local {
	struct client		*c;
	char			 owner[CLUSTER_INST_LEN + 1]; /* relayed to;
						   "" while posted */
	struct keytab_entry	 entry;		/* cl->locals, by client id */
	int			 asking;	/* its last line went to the
						   other nodes (X), or its NAME
						   to Redis: held */
	int			 naming;	/* ... the NAME */
	int64_t			 ask_until;	/* ms: nobody has it by then */
	struct proto_cmd	 ask;		/* what it asked */
	int64_t			 offer_until;	/* ms: posted, offered a match
						   (O), answered by then or
						   posted again; 0 = none */
	int64_t			 ask_first;	/* ms: its RESUME first asked */
	int64_t			 orphan_until;	/* ms: its match's node died;
						   held until taken up (T) or
						   then; 0 = none */
	struct evbuffer		*kept;		/* relayed items not yet run
						   there (cluster-relay.c) */
	unsigned		 nkept;
	uint64_t		 relay_seq;	/* the last item relayed */
	int64_t			 kept_since;	/* ms: the oldest kept item
						   has waited since; 0 = none */
	int			 slow_told;	/* told it waits, this wait */
	LIST_ENTRY(cluster_local) all_entry;
};
LIST_HEAD(cluster_local_list, cluster_local);

struct cluster {
	struct event_base	*base;
	struct lobby		*lobby;
	struct cluster_host	 host;
	struct lobby_listener	 listener;	/* of the world's events */
	struct rlink		*link;
	char			 redis_ip[64];	/* numeric */
	int			 redis_port;
	char			 node[CLUSTER_NODE_MAX + 1];
	char			 prefix[CLUSTER_PREFIX_MAX + 1];
	char			 inst[CLUSTER_INST_LEN + 1];
	char			 old_inst[CLUSTER_INST_LEN + 1]; /* before the
						   last loss of Redis */
	char			 key_node[CLUSTER_PREFIX_MAX + CLUSTER_NODE_MAX + 8];
	char			 key_nodes[CLUSTER_PREFIX_MAX + 8];
	char			 key_queue[CLUSTER_PREFIX_MAX + 8];
	char			 key_since[CLUSTER_PREFIX_MAX + 16]; /* a
						   signed-in entry's start of
						   wait, Redis's ms */
	int			 joined;	/* holds its name in Redis */
	int64_t			 joined_at;	/* ms: since then */
	int			 beating;	/* a beat awaits its answer */
	int			 counted;	/* its beat is in <prefix>nodes:
						   gone from it, it was taken
						   for dead */
	int			 taken_logged;
	struct event		*beat;
	struct event		*tick;		/* asks that time out */
	struct event		*pass;		/* the end of the loop's pass:
						   saves (cluster-keep.c) */
	int			 id_base_set;	/* match ids are the node's */
	uint64_t		 id_k;		/* from k * CLUSTER_ID_BLOCK */
	struct lobby_game	*games;		/* GAMES: the other nodes' */
	struct keytab		 remotes;	/* (home, id) -> remote */
	struct keytab		 locals;	/* client id -> local */
	struct cluster_remote_list all_remotes;
	struct cluster_remote_list dirty;
	struct cluster_local_list all_locals;
	uint64_t		 next_id;	/* remote seats' client ids */
	int64_t			 node_timeout;	/* ms */

	/* Matches kept in Redis (cluster-keep.c). */
	struct cluster_lua	 lua[CLUSTER_NLUA];
	uint64_t		 saves_sent;	/* seqs of the saves */
	uint64_t		 saves_acked;
	unsigned		 msg_refused_logged; /* a bit per reason logged */
	uint64_t		 games_refused;	/* GAMES lines of others refused */
	unsigned		 keep_refused_logged; /* a bit per reason
						   (match_keep_error) logged */
	uint64_t		*ring;		/* the saves in flight: each
						   its count of matches, then
						   their ids */
	size_t			 ring_cap;
	size_t			 ring_head;
	size_t			 ring_len;
	int			 adopting;	/* a take-up script in flight */
	int			 stopping;	/* SIGTERM: nothing more kept */
	int			 leaving;	/* ... its matches being dropped */
	void			(*left)(void *);	/* ... then this */
	void			*left_arg;
	int64_t			 retry_at;	/* ms: a save failed; again then */
	uint64_t		*ended;		/* ids of matches that ended cut
						   off from Redis */
	size_t			 nended;
	size_t			 ended_cap;
	long long		 orphans;	/* instances orphaned (beat) */
	int64_t			 unsettled_until; /* ms: a RESUME of nothing
						   may be a match being taken
						   up: ask again till then */
	struct cluster_name {
		char		 inst[CLUSTER_INST_LEN + 1];
		char		 node[CLUSTER_NODE_MAX + 1];
	}			 names[CLUSTER_NAMES_MAX]; /* the live
						   nodes, as the last beat had
						   them: for the log */
	size_t			 nnames;
	size_t			 names_next;	/* full: the slot to reuse */
	enum cluster_drain	 drain;
	int64_t			 drain_until;	/* ms: give up waiting */
	int			 drain_polling;
};

struct cluster_who;

const char *cluster_base_node_of(const struct cluster *, const char *);
int	cluster_base_who(const struct client *, char *, size_t);
void	cluster_base_send_to(struct cluster *, const char *, char, uint64_t,
		    const char *, size_t);
void	cluster_base_send(struct cluster *, const char *, char, uint64_t,
		    const char *, size_t);
struct cluster_local *cluster_base_local_find(struct cluster *, uint64_t);
struct cluster_local *cluster_base_local_add(struct cluster *, struct client *);
void	cluster_base_local_del(struct cluster *, struct cluster_local *);
void	cluster_queue_repost(struct cluster *, struct client *);
void	cluster_queue_widen(struct cluster *);
struct cluster_remote *cluster_seat_remote_find(struct cluster *, const char *,
		    uint64_t);
struct cluster_remote *cluster_seat_remote_new(struct cluster *, const char *,
		    uint64_t, const char *, const struct cluster_who *);
void	cluster_seat_remote_done(struct cluster_remote *);
void	cluster_seat_remote_free(struct cluster_remote *);
void	cluster_seat_remote_flush(struct cluster_remote *);
void	cluster_seat_remote_due(struct cluster_remote *);
void	cluster_relay_back(struct cluster *, struct cluster_local *, int);
void	cluster_relay_send(struct cluster *, struct cluster_local *, char,
		    uint64_t, const char *, size_t);
void	cluster_relay_acked(struct cluster *, struct cluster_local *,
		    uint64_t);
void	cluster_relay_resend(struct cluster *, struct cluster_local *);
struct evbuffer *cluster_relay_take(struct cluster_local *);
void	cluster_relay_settle(struct client *, struct evbuffer *, int);
int	cluster_relay_tick(struct cluster *, int64_t);
void	cluster_queue_on_offer(struct cluster *, const char *, uint64_t,
		    const char *);
void	cluster_queue_on_seat(struct cluster *, const char *, uint64_t,
		    const char *);
void	cluster_queue_on_nope(struct cluster *, uint64_t);
void	cluster_queue_on_back(struct cluster *, const char *, uint64_t);
void	cluster_seat_on_owner(struct cluster *, char, const char *, uint64_t,
		    const char *, size_t);
void	cluster_seat_on_home(struct cluster *, char, const char *, uint64_t,
		    const char *, size_t);
void	cluster_seat_lost_owners(struct cluster *, const redisReply *);
void	cluster_seat_lost_owner(struct cluster *, struct cluster_local *);
void	cluster_seat_hold_relayed(struct cluster *, const char *);
void	cluster_seat_lost_home(struct cluster_remote *);
int	cluster_base_live(const redisReply *, const char *);
void	cluster_ask_none(struct cluster *, struct cluster_local *);
void	cluster_ask_on_ask(struct cluster *, const char *, uint64_t,
	    const char *, size_t);
void	cluster_ask_on_answer(struct cluster *, char, const char *, uint64_t);
void	cluster_ask_games_publish(struct cluster *);
void	cluster_ask_games_fetch(struct cluster *, const redisReply *);
void	cluster_keep_init(struct cluster *);
void	cluster_keep_pass_cb(evutil_socket_t, short, void *);
void	cluster_keep_pass(struct cluster *);
void	cluster_keep_up(struct cluster *);
void	cluster_keep_all(struct cluster *);
void	cluster_keep_forget_ended(struct cluster *);
void	cluster_keep_adopt(struct cluster *);
int	cluster_keep_eval(struct cluster *, int, rlink_reply_cb *, void *, int,
		    const char **, const size_t *);
void	cluster_keep_on_taken(struct cluster *, const char *, uint64_t,
		    const char *);
void	cluster_seat_flush(struct cluster *);
void	cluster_account_signed_in(void *, struct client *);
void	cluster_account_on_signed_in(struct cluster *, const char *,
	    const char *);
void	cluster_account_rated(void *, struct client *);
void	cluster_account_on_rated(struct cluster *, const char *, uint64_t,
	    const char *);
void	cluster_seat_forget(void *, struct client *);
void	cluster_queue_alone(void *, struct client *);
void	cluster_queue_unqueued(void *, struct client *);
void	cluster_relay(void *, struct client *, const char *, size_t);
void	cluster_relay_error(void *, struct client *, enum proto_error);
void	cluster_relay_end(void *, struct client *, enum proto_leave, int);
int	cluster_ask_elsewhere(void *, struct client *,
	    const struct proto_cmd *);
int	cluster_ask_name_check(void *, struct client *, const char *);
void	cluster_ask_name_changed(void *, struct client *, const char *,
	    const char *);
void	cluster_keep_flush(struct cluster *);
void	cluster_keep_touched(void *, struct match *);
void	cluster_keep_ended(void *, struct match *);
void	cluster_keep_settled(void *, uint64_t, unsigned);
void	cluster_drain_step(struct cluster *);
void	cluster_drain_tick(struct cluster *);

#endif /* CLUSTER_INT_H */
