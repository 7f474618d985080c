/*
 * room.c -- private rooms.  A room is its maker, waiting out of the public
 * queue under a single-use code from the OS random source; it closes when
 * joined, when the maker leaves or does something else, and when its
 * clock (--room-ttl) runs out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "place.h"
#include "room.h"

/* Open a room for a player doing nothing else: OK ROOM <code>, WAIT. */
void
room_open(struct client *c)
{
	struct lobby		*lobby = c->lobby;
	struct proto_cmd	 ok = { .verb = PROTO_ROOM };
	struct room		*r;
	char			 buf[PROTO_OUT_MAX];

	if ((r = calloc(1, sizeof *r)) == NULL)
		fatalx("out of memory");
	do
		lobby_code(lobby, r->code, PROTO_CODE_LEN);
	while (keytab_find(&lobby->rooms, keytab_code(r->code)) != NULL);
	keytab_add(&lobby->rooms, &r->entry, keytab_code(r->code), r);
	r->maker = c;
	c->room = r;
	place_set(c, PLACE_ROOM);
	log_info("client %llu: room %s opened", (unsigned long long)c->id,
	    r->code);
	memcpy(ok.code, r->code, sizeof r->code);
	client_send(c, buf, proto_fmt_ok(buf, sizeof buf, &ok));
	client_send(c, buf, proto_fmt_wait_room(buf, sizeof buf, r->code));
	clock_start(c, CLIENT_CLOCK_ROOM);
}

/* Close the player's room, if it has one: its code is gone. */
void
room_close(struct client *c)
{
	if (c->room == NULL)
		return;
	keytab_del(&c->lobby->rooms, &c->room->entry);
	free(c->room);
	c->room = NULL;
	place_set(c, PLACE_NONE);
	if (c->clock == CLIENT_CLOCK_ROOM)
		clock_stop(c);
}

/* The room's clock ran out: say so, and back to the public queue. */
void
room_expired(struct client *c)
{
	char	buf[PROTO_OUT_MAX], text[64], code[PROTO_CODE_LEN + 2];

	log_info("client %llu: room %s expired", (unsigned long long)c->id,
	    c->room->code);
	proto_fmt_code(code, c->room->code);
	snprintf(text, sizeof text, "Room %s expired.", code);
	room_close(c);
	client_send(c, buf, proto_fmt_info(buf, sizeof buf, text));
	lobby_join(c->lobby, c);
}

/* The maker of the open room with this code, or NULL. */
struct client *
room_find(struct lobby *lobby, const char *code)
{
	struct room	*r = keytab_find(&lobby->rooms, keytab_code(code));

	/* A maker being closed (unread output) has no room to join. */
	if (r == NULL || (r->maker->flags & CLIENT_CLOSING))
		return (NULL);
	return (r->maker);
}
