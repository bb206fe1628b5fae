// SPDX-License-Identifier: GPL-2.0
/*
 * sbdctl: the pure pieces, see util.h.  Nothing here touches the file
 * system or the locale, so test_util.c can check every case on the host.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/*
 * Reads the decimal digits at *p (there is at least one) into *v and moves
 * *p past them.  Returns -ERANGE when the value passed 2^64 - 1, else 0.
 */
static int scan_digits(const char **p, uint64_t *v)
{
	const char *s = *p;
	int ret = 0;

	*v = 0;
	while (is_digit(*s)) {
		unsigned int d = *s - '0';

		if (*v > (UINT64_MAX - d) / 10)
			ret = -ERANGE;
		else
			*v = *v * 10 + d;
		s++;
	}
	*p = s;
	return ret;
}

int parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "KMGTP";
	const char *p = s, *u;
	uint64_t v, base, mul = 1;
	int ret, i;

	if (!is_digit(*p))
		return -EINVAL;
	ret = scan_digits(&p, &v);
	if (*p) {
		u = strchr(units, ascii_upper(*p));
		if (ascii_upper(*p) == 'B' && !p[1]) {
			/* bytes */
		} else if (u) {
			p++;
			if (!*p)
				base = 1024;
			else if (ascii_upper(p[0]) == 'B' && !p[1])
				base = 1000;
			else if (ascii_upper(p[0]) == 'I' &&
				 ascii_upper(p[1]) == 'B' && !p[2])
				base = 1024;
			else
				return -EINVAL;
			for (i = 0; i <= u - units; i++)
				mul *= base;
		} else {
			return -EINVAL;
		}
	}
	if (ret || v > UINT64_MAX / mul)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	const char *p = s;
	uint64_t v;
	int ret;

	if (!is_digit(*p))
		return -EINVAL;
	ret = scan_digits(&p, &v);
	if (*p)
		return -EINVAL;
	if (ret || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_attr_u64(const char *buf, uint64_t *out)
{
	const char *p = buf;
	uint64_t v;
	int ret;

	if (!is_digit(*p))
		return -EINVAL;
	ret = scan_digits(&p, &v);
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	if (ret)
		return ret;
	*out = v;
	return 0;
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	unsigned int exp = 0, shift;
	uint64_t unit, rem, tenths;

	if (bytes < 1024) {
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
		return;
	}
	while (exp < 6 && bytes >> (10 * (exp + 1)))
		exp++;
	for (;;) {
		shift = 10 * exp;
		unit = 1ULL << shift;
		rem = bytes & (unit - 1);
		/* rem * 10 < 10 << 60 still fits in 64 bits */
		tenths = (bytes >> shift) * 10 + (rem * 10 + unit / 2) / unit;
		if (tenths < 10240 || exp == 6)
			break;
		exp++;
	}
	if (tenths % 10)
		snprintf(buf, len, "%llu.%llu%c", (unsigned long long)tenths / 10,
			 (unsigned long long)tenths % 10, units[exp]);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)tenths / 10,
			 units[exp]);
}

/* Appends to a snprintf-like buffer, counting what does not fit. */
struct sbuf {
	char *buf;
	size_t len, pos;
};

static void sbuf_putc(struct sbuf *b, char c)
{
	if (b->pos + 1 < b->len)
		b->buf[b->pos] = c;
	b->pos++;
}

static void sbuf_puts(struct sbuf *b, const char *s)
{
	while (*s)
		sbuf_putc(b, *s++);
}

/*
 * The length of the valid UTF-8 sequence at s (1 to 4), or 0 when s does
 * not start one: no overlong forms, no surrogates, nothing past U+10FFFF.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

size_t json_escape(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	struct sbuf b = { buf, len, 0 };
	char esc[8];
	size_t n;

	sbuf_putc(&b, '"');
	while (*p) {
		n = utf8_len(p);
		if (!n) {
			sbuf_puts(&b, "\\ufffd");
			p++;
			continue;
		}
		if (n > 1) {
			while (n--)
				sbuf_putc(&b, *p++);
			continue;
		}
		switch (*p) {
		case '"':
			sbuf_puts(&b, "\\\"");
			break;
		case '\\':
			sbuf_puts(&b, "\\\\");
			break;
		case '\b':
			sbuf_puts(&b, "\\b");
			break;
		case '\f':
			sbuf_puts(&b, "\\f");
			break;
		case '\n':
			sbuf_puts(&b, "\\n");
			break;
		case '\r':
			sbuf_puts(&b, "\\r");
			break;
		case '\t':
			sbuf_puts(&b, "\\t");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				snprintf(esc, sizeof(esc), "\\u%04x", *p);
				sbuf_puts(&b, esc);
			} else {
				sbuf_putc(&b, *p);
			}
		}
		p++;
	}
	sbuf_putc(&b, '"');
	if (len)
		buf[b.pos < len ? b.pos : len - 1] = '\0';
	return b.pos;
}

static const char *const queue_modes[] = {
	[QUEUE_MODE_BIO]	= "bio",
	[QUEUE_MODE_MQ]		= "mq",
};

enum queue_mode parse_queue_mode(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(queue_modes); i++)
		if (queue_modes[i] && !strcmp(s, queue_modes[i]))
			return i;
	return QUEUE_MODE_UNKNOWN;
}

const char *queue_mode_name(enum queue_mode mode)
{
	if ((size_t)mode >= ARRAY_SIZE(queue_modes))
		return NULL;
	return queue_modes[mode];
}

bool features_has(const char *features, const char *name)
{
	size_t n = strlen(name), len;
	const char *p = features, *end;

	if (!n)
		return false;
	for (;;) {
		while (*p == ' ')
			p++;
		end = p + strcspn(p, ",\n");
		len = end - p;
		while (len && p[len - 1] == ' ')
			len--;
		if (len == n && !memcmp(p, name, n))
			return true;
		if (*end != ',')
			return false;
		p = end + 1;
	}
}

void table_escape(const char *s, char *buf, size_t len)
{
	struct sbuf b = { buf, len, 0 };
	char esc[8];

	for (; *s; s++) {
		unsigned char c = *s;

		if (c <= ' ' || c == 0x7f || c == '\\') {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			sbuf_puts(&b, esc);
		} else {
			sbuf_putc(&b, c);
		}
	}
	if (len)
		buf[b.pos < len ? b.pos : len - 1] = '\0';
}

/*
 * Whether s is "sbd" DIGITS or "sbd" DIGITS "p" DIGITS.  *disk and *part
 * get the numbers: -1 for none, -2 for one with a leading zero or too big
 * for an int (the kernel never makes such a name).
 */
static bool sbd_word(const char *s, int *disk, int *part)
{
	const char *p;
	int *num[2] = { disk, part };
	int i;

	*disk = -1;
	*part = -1;
	if (strncmp(s, "sbd", 3))
		return false;
	p = s + 3;
	for (i = 0; i < 2; i++) {
		const char *start = p;
		long long v = 0;

		if (!is_digit(*p))
			return false;
		while (is_digit(*p)) {
			if (v <= INT_MAX)
				v = v * 10 + (*p - '0');
			p++;
		}
		*num[i] = (v > INT_MAX || (*start == '0' && p - start > 1)) ?
			  -2 : (int)v;
		if (!*p)
			break;
		if (i == 1 || *p != 'p')
			return false;
		p++;
	}
	return true;
}

int sbd_index(const char *name)
{
	int disk, part;

	if (!sbd_word(name, &disk, &part) || part != -1 || disk < 0)
		return -1;
	return disk;
}

bool valid_disk_name(const char *name)
{
	size_t n = strlen(name), i;
	int disk, part;

	if (!n || n > SBDCTL_NAME_MAX || name[0] == '.')
		return false;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!(is_digit(c) || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || c == '.' || c == '_' ||
		      c == '-'))
			return false;
	}
	return !sbd_word(name, &disk, &part);
}

static enum dev_kind classify_word(const char *w, struct dev_arg *out)
{
	int disk, part;

	if (!sbd_word(w, &disk, &part))
		return DEV_NAME;
	if (disk < 0 || part == -2)
		return DEV_INVALID;
	out->index = disk;
	return part == -1 ? DEV_INDEX : DEV_PARTITION;
}

enum dev_kind parse_dev_arg(const char *arg, const char *devdir,
			    struct dev_arg *out)
{
	size_t dl = strlen(devdir);
	const char *rest;

	out->index = -1;
	out->name = NULL;
	while (dl && devdir[dl - 1] == '/')
		dl--;
	if (!strchr(arg, '/')) {
		if (!*arg || !strcmp(arg, ".") || !strcmp(arg, ".."))
			out->kind = DEV_INVALID;
		else
			out->kind = classify_word(arg, out);
		if (out->kind == DEV_NAME)
			out->name = arg;
		return out->kind;
	}
	out->kind = DEV_INVALID;
	if (strncmp(arg, devdir, dl) || arg[dl] != '/')
		return out->kind;
	rest = arg + dl + 1;
	/* the udev rule's link of a named disk: DEVDIR/sbd/by-name/NAME */
	if (!strncmp(rest, SBD_BY_NAME "/", strlen(SBD_BY_NAME) + 1)) {
		rest += strlen(SBD_BY_NAME) + 1;
		if (*rest && !strchr(rest, '/') && strcmp(rest, ".") &&
		    strcmp(rest, "..")) {
			out->kind = DEV_NAME;
			out->name = rest;
		}
		return out->kind;
	}
	if (!*rest || strchr(rest, '/'))
		return out->kind;
	out->kind = classify_word(rest, out);
	if (out->kind == DEV_NAME)
		out->kind = DEV_INVALID;
	return out->kind;
}

unsigned int first_free_disk_name(const char *const *names, size_t n)
{
	char want[32];
	unsigned int k;
	size_t i;

	for (k = 0;; k++) {
		snprintf(want, sizeof(want), "disk%u", k);
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], want))
				break;
		if (i == n)
			return k;
	}
}

int entry_cmp(const void *a, const void *b)
{
	const struct sbd_entry *x = a, *y = b;

	if (x->index >= 0 && y->index >= 0)
		return (x->index > y->index) - (x->index < y->index);
	if (x->index >= 0 || y->index >= 0)
		return x->index >= 0 ? -1 : 1;
	return strcmp(x->name, y->name);
}

bool valid_attr_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len > ATTR_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}
