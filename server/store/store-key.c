/*
 * store-key.c -- an account's key: a word of random bits, shown once, and
 * its SHA-256, all the store keeps of it (nettle).
 */
#include <string.h>

#include <nettle/sha2.h>

#include "store.h"

static const char store_key_alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";

/* Write a key of len random bytes into out: 0, or -1 when too few or small. */
int
store_key_make(char *out, size_t outlen, const uint8_t *random, size_t len)
{
	size_t		 nbits, n, i;
	unsigned int	 acc = 0;
	int		 have = 0;

	if (len < STORE_KEY_RANDOM)
		return (-1);
	nbits = len * 8;
	n = (nbits + 4) / 5;
	if (outlen < n + 1)
		return (-1);
	for (i = 0; i < len || have > 0;) {
		if (have < 5 && i < len) {
			acc = (acc << 8) | random[i++];
			have += 8;
		}
		if (have < 5) {		/* the last bits, padded with zeros */
			acc <<= 5 - have;
			have = 5;
		}
		*out++ = store_key_alphabet[(acc >> (have - 5)) & 31];
		have -= 5;
		acc &= (1u << have) - 1;
	}
	*out = '\0';
	return (0);
}

/* Whether a word is a key's shape: 26 to 64 characters of the alphabet. */
int
store_key_valid(const char *key)
{
	size_t	len = strlen(key);

	if (len < STORE_KEY_LEN || len > 64)
		return (0);
	return (strspn(key, store_key_alphabet) == len);
}

/* Hash a key into out (STORE_HASH_LEN bytes). */
void
store_key_hash(const char *key, uint8_t *out)
{
	struct sha256_ctx	ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, strlen(key), (const uint8_t *)key);
	sha256_digest(&ctx, STORE_HASH_LEN, out);
}
