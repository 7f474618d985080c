/*
 * telnet_bytes.h -- telnet's bytes (RFC 854, 860, 1073, 1091) as C
 * strings, for the tests that speak telnet to tttd or to its filter.
 */
#ifndef TELNET_BYTES_H
#define TELNET_BYTES_H

#define IAC		"\xff"
#define DONT		"\xfe"
#define DO		"\xfd"
#define WONT		"\xfc"
#define WILL		"\xfb"
#define SB		"\xfa"
#define SE		"\xf0"
#define IP		"\xf4"
#define NOP		"\xf1"
#define O_ECHO		"\x01"
#define O_SGA		"\x03"
#define O_TM		"\x06"
#define O_TTYPE		"\x18"
#define O_NAWS		"\x1f"

#endif /* TELNET_BYTES_H */
