/*
 * store-pglib.h -- libpq, loaded when a --db names PostgreSQL and not
 * before: a guest game on one node, or an SQLite store, does not pay for
 * it (libpq brings Kerberos, LDAP, GnuTLS and OpenSSL: ten thousand
 * symbols for the dynamic linker to bind at every start, a 60 % larger
 * start; docs/performance.md).
 *
 * store-pg.c includes this header instead of calling libpq directly: each
 * PQ function it uses is a pointer of store_pglib, filled in by
 * store_pglib_load(), under the function's own name (a macro), so that
 * store-pg.c reads as plain libpq.
 */
#ifndef STORE_PGLIB_H
#define STORE_PGLIB_H

#include <stddef.h>

#include <libpq-fe.h>

/* The soname of Debian's libpq5 (libpq's ABI has been 5 since 2006). */
#define STORE_PGLIB_SONAME	"libpq.so.5"

/* The functions store-pg.c uses: X(name) for each. */
#define STORE_PGLIB_FUNCS(X)						\
	X(PQclear)							\
	X(PQconnectPoll)						\
	X(PQconnectStartParams)						\
	X(PQconninfoFree)						\
	X(PQconninfoParse)						\
	X(PQconsumeInput)						\
	X(PQenterPipelineMode)						\
	X(PQerrorMessage)						\
	X(PQfinish)							\
	X(PQflush)							\
	X(PQfreemem)							\
	X(PQgetResult)							\
	X(PQgetvalue)							\
	X(PQisBusy)							\
	X(PQntuples)							\
	X(PQpipelineSync)						\
	X(PQresultErrorField)						\
	X(PQresultErrorMessage)						\
	X(PQresultStatus)						\
	X(PQsendQuery)							\
	X(PQsendQueryParams)						\
	X(PQsetnonblocking)						\
	X(PQsocket)							\
	X(PQstatus)							\
	X(PQtransactionStatus)

#define STORE_PGLIB_FIELD(f)	__typeof__(f) *f;
struct store_pglib {
	STORE_PGLIB_FUNCS(STORE_PGLIB_FIELD)
};
#undef STORE_PGLIB_FIELD

extern struct store_pglib store_pglib;

int	store_pglib_load(char *, size_t);

#ifndef STORE_PGLIB_SELF
#define PQclear			(*store_pglib.PQclear)
#define PQconnectPoll		(*store_pglib.PQconnectPoll)
#define PQconnectStartParams	(*store_pglib.PQconnectStartParams)
#define PQconninfoFree		(*store_pglib.PQconninfoFree)
#define PQconninfoParse		(*store_pglib.PQconninfoParse)
#define PQconsumeInput		(*store_pglib.PQconsumeInput)
#define PQenterPipelineMode	(*store_pglib.PQenterPipelineMode)
#define PQerrorMessage		(*store_pglib.PQerrorMessage)
#define PQfinish		(*store_pglib.PQfinish)
#define PQflush			(*store_pglib.PQflush)
#define PQfreemem		(*store_pglib.PQfreemem)
#define PQgetResult		(*store_pglib.PQgetResult)
#define PQgetvalue		(*store_pglib.PQgetvalue)
#define PQisBusy		(*store_pglib.PQisBusy)
#define PQntuples		(*store_pglib.PQntuples)
#define PQpipelineSync		(*store_pglib.PQpipelineSync)
#define PQresultErrorField	(*store_pglib.PQresultErrorField)
#define PQresultErrorMessage	(*store_pglib.PQresultErrorMessage)
#define PQresultStatus		(*store_pglib.PQresultStatus)
#define PQsendQuery		(*store_pglib.PQsendQuery)
#define PQsendQueryParams	(*store_pglib.PQsendQueryParams)
#define PQsetnonblocking	(*store_pglib.PQsetnonblocking)
#define PQsocket		(*store_pglib.PQsocket)
#define PQstatus		(*store_pglib.PQstatus)
#define PQtransactionStatus	(*store_pglib.PQtransactionStatus)
#endif

#endif
