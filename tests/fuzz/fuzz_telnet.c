/*
 * fuzz_telnet.c -- libFuzzer harness for a connection's telnet
 * (server/telnet.c on libtelnet): arbitrary bytes from a client, read in
 * chunks as the daemon reads them, and arbitrary bytes sent to it.
 *
 * Input: one byte for the chunk size (1 to PROTO_SCAN_MAX, as a read is
 * never more), then the client's bytes.  Checked on every chunk: the data
 * is never more than the bytes read, what is written (in all) never more
 * than what was read (in all), and only WILL TIMING-MARK, WONT or DONT; a broken telnet stays broken
 * and says nothing more.  Against a model of RFC 854 (for inputs without
 * subnegotiation, which the model does not follow): the data, the
 * answers, the interrupt and the bound on commands.  Then what is sent is
 * escaped: undoing IAC IAC gives back the bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto.h"
#include "telnet.h"

#define FUZZ_IAC	0xff
#define FUZZ_SB		0xfa
#define FUZZ_WILL	0xfb
#define FUZZ_WONT	0xfc
#define FUZZ_DO		0xfd
#define FUZZ_DONT	0xfe
#define FUZZ_IP		0xf4
#define FUZZ_TM		0x06

/* The model: RFC 854's parser without subnegotiation. */
enum fuzz_state { M_DATA, M_IAC, M_NEG, M_SB };

struct fuzz_model {
	enum fuzz_state	 state;
	uint8_t		 neg;		/* the WILL, WONT, DO or DONT */
	size_t		 commands;
	int		 broken;
	int		 interrupt;
	uint8_t		 data[PROTO_SCAN_MAX];
	size_t		 ndata;
	uint8_t		 wrote[2 * PROTO_SCAN_MAX];
	size_t		 nwrote;
	unsigned	 marks;
};

static uint8_t	fuzz_wrote[4 * PROTO_SCAN_MAX];
static size_t	fuzz_nwrote;

static void
fuzz_write(void *arg, const char *buf, size_t len)
{
	(void)arg;
	CHECK(fuzz_nwrote + len <= sizeof fuzz_wrote);
	memcpy(fuzz_wrote + fuzz_nwrote, buf, len);
	fuzz_nwrote += len;
}

/* The model's answer to a negotiation. */
static void
fuzz_model_neg(struct fuzz_model *m, uint8_t opt)
{
	uint8_t	 answer;

	if (m->neg == FUZZ_DO && opt == FUZZ_TM) {
		m->marks++;
		return;
	}
	if (m->neg == FUZZ_DO)
		answer = FUZZ_WONT;
	else if (m->neg == FUZZ_WILL)
		answer = FUZZ_DONT;
	else
		return;
	m->wrote[m->nwrote++] = FUZZ_IAC;
	m->wrote[m->nwrote++] = answer;
	m->wrote[m->nwrote++] = opt;
}

/* One chunk through the model; 0 once it meets a subnegotiation. */
static int
fuzz_model_chunk(struct fuzz_model *m, const uint8_t *p, size_t len)
{
	size_t	i;

	m->ndata = m->nwrote = 0;
	m->marks = 0;
	m->interrupt = 0;
	if (m->broken)
		return (1);
	for (i = 0; i < len; i++) {
		uint8_t	b = p[i];
		int	out = -1;

		switch (m->state) {
		case M_DATA:
			if (b == FUZZ_IAC)
				m->state = M_IAC;
			else
				out = b;
			break;
		case M_IAC:
			m->state = M_DATA;
			if (b == FUZZ_IAC)
				out = b;
			else if (b >= FUZZ_WILL && b <= FUZZ_DONT) {
				m->neg = b;
				m->state = M_NEG;
			} else if (b == FUZZ_SB)
				return (0);
			else if (b == FUZZ_IP)
				m->interrupt = 1;
			break;
		case M_NEG:
			fuzz_model_neg(m, b);
			m->state = M_DATA;
			break;
		case M_SB:
			return (0);
		}
		if (out != -1 && !m->interrupt)
			m->data[m->ndata++] = (uint8_t)out;
	}
	if (m->ndata > 0 && memchr(m->data, '\n', m->ndata) != NULL)
		m->commands = 0;
	m->commands += len - m->ndata;
	if (m->commands > TN_COMMANDS_MAX)
		m->broken = 1;
	if (m->broken)
		m->ndata = 0;
	else {
		for (; m->marks > 0; m->marks--) {
			m->wrote[m->nwrote++] = FUZZ_IAC;
			m->wrote[m->nwrote++] = FUZZ_WILL;
			m->wrote[m->nwrote++] = FUZZ_TM;
		}
	}
	return (1);
}

/* What was written is answers only: WILL TIMING-MARK, WONT x, DONT x. */
static void
fuzz_check_answers(const uint8_t *p, size_t len)
{
	size_t	i;

	CHECK(len % 3 == 0);
	for (i = 0; i < len; i += 3) {
		CHECK(p[i] == FUZZ_IAC);
		CHECK((p[i + 1] == FUZZ_WILL && p[i + 2] == FUZZ_TM) ||
		    (p[i + 1] == FUZZ_WONT && p[i + 2] != FUZZ_TM) ||
		    p[i + 1] == FUZZ_DONT);
	}
}

/* Sent bytes come out escaped: IAC IAC for each IAC, nothing else. */
static void
fuzz_check_send(struct tn *tn, const uint8_t *p, size_t len)
{
	size_t	i, j = 0;

	if (len > PROTO_SCAN_MAX)
		len = PROTO_SCAN_MAX;
	fuzz_nwrote = 0;
	tn_send(tn, (const char *)p, len);
	for (i = 0; i < len; i++) {
		CHECK(j < fuzz_nwrote && fuzz_wrote[j] == p[i]);
		if (p[i] == FUZZ_IAC) {
			CHECK(j + 1 < fuzz_nwrote && fuzz_wrote[j + 1] == FUZZ_IAC);
			j++;
		}
		j++;
	}
	CHECK(j == fuzz_nwrote);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_model	 m;
	struct tn		*tn;
	char			 out[PROTO_SCAN_MAX];
	size_t			 chunk, n, got, all = size, in = 0, wrote = 0;
	int			 flags, broken = 0, modeled = 1;
	const uint8_t		*p;

	if (size < 1)
		return (0);
	chunk = 1 + data[0] % PROTO_SCAN_MAX;
	p = data + 1;
	size--;
	memset(&m, 0, sizeof m);
	if ((tn = tn_new(fuzz_write, NULL)) == NULL)
		abort();
	if (memchr(p, FUZZ_IAC, size) == NULL)
		CHECK(!tn_starts((const char *)p, size));
	while (size > 0) {
		n = size < chunk ? size : chunk;
		fuzz_nwrote = 0;
		got = tn_recv(tn, (const char *)p, n, out, &flags);
		tn_marks(tn);
		in += n;
		wrote += fuzz_nwrote;
		CHECK(got <= n);
		CHECK(wrote <= in);	/* an answer for 3 bytes, at most */
		CHECK((flags & ~(TN_INTERRUPT | TN_BROKEN)) == 0);
		fuzz_check_answers(fuzz_wrote, fuzz_nwrote);
		if (broken) {
			CHECK(flags & TN_BROKEN);
			CHECK(got == 0 && fuzz_nwrote == 0);
		}
		broken = (flags & TN_BROKEN) != 0;
		if (modeled && (modeled = fuzz_model_chunk(&m, p, n))) {
			CHECK(broken == m.broken);
			CHECK(!!(flags & TN_INTERRUPT) == m.interrupt || broken);
			CHECK(got == m.ndata);
			CHECK(memcmp(out, m.data, got) == 0);
			CHECK(fuzz_nwrote == m.nwrote);
			CHECK(memcmp(fuzz_wrote, m.wrote, m.nwrote) == 0);
		}
		p += n;
		size -= n;
	}
	if (!broken)
		fuzz_check_send(tn, data, all);
	tn_free(tn);
	return (0);
}
