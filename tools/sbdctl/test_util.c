// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of util.c, run on the host by `make test`: one TAP line per
 * case, "ok N - what" or "not ok N - what" followed by what came out.
 * Exits 1 if any case failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int tests, failures;

static bool __attribute__((format(printf, 2, 3)))
ok(bool pass, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!pass)
		failures++;
	printf("%sok %d - ", pass ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return pass;
}

static const char *err_name(int err)
{
	switch (err) {
	case 0: return "0";
	case -EINVAL: return "-EINVAL";
	case -ERANGE: return "-ERANGE";
	default: return "other";
	}
}

/* Printable form of a test string, for the TAP line. */
static const char *show(const char *s)
{
	static char buf[8][256];
	static int slot;
	char *b = buf[slot++ % 8];
	size_t n = 0;

	for (; *s && n < 240; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			n += snprintf(b + n, 8, "\\x%02x", c);
		else
			b[n++] = c;
	}
	b[n] = '\0';
	return b;
}

#define SENTINEL	0x5a5a5a5a5a5a5a5aULL

static void size_is(const char *s, uint64_t want)
{
	uint64_t v = SENTINEL;
	int ret = parse_size(s, &v);

	if (!ok(!ret && v == want, "parse_size(\"%s\") = %llu", show(s),
		(unsigned long long)want))
		printf("#   got %s, %llu\n", err_name(ret), (unsigned long long)v);
}

static void size_err(const char *s, int err)
{
	uint64_t v = SENTINEL;
	int ret = parse_size(s, &v);

	if (!ok(ret == err && v == SENTINEL, "parse_size(\"%s\") fails %s",
		show(s), err_name(err)))
		printf("#   got %s, %llu\n", err_name(ret), (unsigned long long)v);
}

static void test_parse_size(void)
{
	static const char *const bin[] = { "K", "M", "G", "T", "P" };
	static const char *const bin_lower[] = { "k", "m", "g", "t", "p" };
	static const char *const iec[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	static const char *const iec_case[] = { "kib", "MIB", "gIb", "TiB", "pib" };
	static const char *const dec[] = { "KB", "MB", "GB", "TB", "PB" };
	static const char *const dec_case[] = { "kb", "Mb", "gB", "tb", "pB" };
	uint64_t b = 1, d = 1;
	char s[32];
	int i;

	size_is("0", 0);
	size_is("1", 1);
	size_is("512", 512);
	size_is("007", 7);
	size_is("1B", 1);
	size_is("1b", 1);
	size_is("4096B", 4096);
	size_is("0K", 0);
	for (i = 0; i < 5; i++) {
		b *= 1024;
		d *= 1000;
		snprintf(s, sizeof(s), "3%s", bin[i]);
		size_is(s, 3 * b);
		snprintf(s, sizeof(s), "3%s", bin_lower[i]);
		size_is(s, 3 * b);
		snprintf(s, sizeof(s), "3%s", iec[i]);
		size_is(s, 3 * b);
		snprintf(s, sizeof(s), "3%s", iec_case[i]);
		size_is(s, 3 * b);
		snprintf(s, sizeof(s), "3%s", dec[i]);
		size_is(s, 3 * d);
		snprintf(s, sizeof(s), "3%s", dec_case[i]);
		size_is(s, 3 * d);
	}
	size_is("64M", 67108864);
	size_is("1G", 1073741824);
	size_is("1GB", 1000000000);
	size_is("1P", 1125899906842624ULL);
	size_is("1PB", 1000000000000000ULL);

	/* the edges of 64 bits */
	size_is("18446744073709551615", UINT64_MAX);
	size_is("18446744073709551615B", UINT64_MAX);
	size_err("18446744073709551616", -ERANGE);
	size_err("99999999999999999999999", -ERANGE);
	size_is("16383P", 16383ULL << 50);
	size_err("16384P", -ERANGE);
	size_is("17179869183G", 17179869183ULL << 30);
	size_err("17179869184G", -ERANGE);
	size_is("18446PB", 18446000000000000000ULL);
	size_err("18447PB", -ERANGE);
	size_err("18446744073709551615K", -ERANGE);
	size_err("18014398509481984K", -ERANGE);
	size_is("18014398509481983K", 18014398509481983ULL * 1024);

	/* not sizes */
	size_err("", -EINVAL);
	size_err("-1", -EINVAL);
	size_err("+1", -EINVAL);
	size_err("-0", -EINVAL);
	size_err(" 1", -EINVAL);
	size_err("1 ", -EINVAL);
	size_err("1 G", -EINVAL);
	size_err("1\n", -EINVAL);
	size_err("1.5G", -EINVAL);
	size_err("1,5G", -EINVAL);
	size_err(".5G", -EINVAL);
	size_err("12Q", -EINVAL);
	size_err("G", -EINVAL);
	size_err("B", -EINVAL);
	size_err("K1", -EINVAL);
	size_err("1KK", -EINVAL);
	size_err("1iB", -EINVAL);
	size_err("1Ki", -EINVAL);
	size_err("1KiBB", -EINVAL);
	size_err("1KBB", -EINVAL);
	size_err("1BB", -EINVAL);
	size_err("1Bi", -EINVAL);
	size_err("1E", -EINVAL);
	size_err("1EiB", -EINVAL);
	size_err("0x10", -EINVAL);
	size_err("1e3", -EINVAL);
	size_err("1G1", -EINVAL);
	/* syntax is judged before range */
	size_err("99999999999999999999999Q", -EINVAL);
}

static void uint_is(const char *s, uint64_t max, uint64_t want)
{
	uint64_t v = SENTINEL;
	int ret = parse_uint(s, max, &v);

	if (!ok(!ret && v == want, "parse_uint(\"%s\", %llu) = %llu", show(s),
		(unsigned long long)max, (unsigned long long)want))
		printf("#   got %s, %llu\n", err_name(ret), (unsigned long long)v);
}

static void uint_err(const char *s, uint64_t max, int err)
{
	uint64_t v = SENTINEL;
	int ret = parse_uint(s, max, &v);

	if (!ok(ret == err && v == SENTINEL, "parse_uint(\"%s\", %llu) fails %s",
		show(s), (unsigned long long)max, err_name(err)))
		printf("#   got %s, %llu\n", err_name(ret), (unsigned long long)v);
}

static void test_parse_uint(void)
{
	uint_is("0", 10, 0);
	uint_is("10", 10, 10);
	uint_is("0010", 10, 10);
	uint_err("11", 10, -ERANGE);
	uint_is("4294967295", UINT32_MAX, UINT32_MAX);
	uint_err("4294967296", UINT32_MAX, -ERANGE);
	uint_is("18446744073709551615", UINT64_MAX, UINT64_MAX);
	uint_err("18446744073709551616", UINT64_MAX, -ERANGE);
	uint_err("", 10, -EINVAL);
	uint_err("-1", 10, -EINVAL);
	uint_err("+1", 10, -EINVAL);
	uint_err(" 1", 10, -EINVAL);
	uint_err("1 ", 10, -EINVAL);
	uint_err("1K", 10, -EINVAL);
	uint_err("abc", 10, -EINVAL);
	uint_err("1.0", 10, -EINVAL);
}

static void attr_is(const char *s, uint64_t want)
{
	uint64_t v = SENTINEL;
	int ret = parse_attr_u64(s, &v);

	if (!ok(!ret && v == want, "parse_attr_u64(\"%s\") = %llu", show(s),
		(unsigned long long)want))
		printf("#   got %s, %llu\n", err_name(ret), (unsigned long long)v);
}

static void attr_err(const char *s, int err)
{
	uint64_t v = SENTINEL;
	int ret = parse_attr_u64(s, &v);

	if (!ok(ret == err && v == SENTINEL, "parse_attr_u64(\"%s\") fails %s",
		show(s), err_name(err)))
		printf("#   got %s, %llu\n", err_name(ret), (unsigned long long)v);
}

static void test_parse_attr(void)
{
	attr_is("123\n", 123);
	attr_is("123", 123);
	attr_is("0\n", 0);
	attr_is("18446744073709551615\n", UINT64_MAX);
	attr_err("18446744073709551616\n", -ERANGE);
	attr_err("", -EINVAL);
	attr_err("\n", -EINVAL);
	attr_err("123\n\n", -EINVAL);
	attr_err("12x\n", -EINVAL);
	attr_err("1 2\n", -EINVAL);
	attr_err(" 12\n", -EINVAL);
	attr_err("-1\n", -EINVAL);
	attr_err("1\n2", -EINVAL);
	attr_err("sbd3\n", -EINVAL);
}

static void fmt_is(uint64_t bytes, const char *want)
{
	char buf[32];

	memset(buf, 'x', sizeof(buf));
	format_size(bytes, buf, sizeof(buf));
	if (!ok(!strcmp(buf, want), "format_size(%llu) = \"%s\"",
		(unsigned long long)bytes, want))
		printf("#   got \"%s\"\n", show(buf));
}

static void test_format_size(void)
{
	char buf[8];

	fmt_is(0, "0B");
	fmt_is(1, "1B");
	fmt_is(512, "512B");
	fmt_is(1000, "1000B");
	fmt_is(1023, "1023B");
	fmt_is(1024, "1K");
	fmt_is(1025, "1K");
	fmt_is(1075, "1K");		/* 1.0498K rounds down */
	fmt_is(1076, "1.1K");		/* 1.0508K rounds up */
	fmt_is(1536, "1.5K");
	fmt_is(12288, "12K");
	fmt_is(1048012, "1023.4K");
	fmt_is(1048063, "1023.5K");
	fmt_is(1048524, "1023.9K");
	fmt_is(1048525, "1M");		/* 1023.95K: carried, not "1024K" */
	fmt_is(1048575, "1M");
	fmt_is(1048576, "1M");
	fmt_is(67108864, "64M");
	fmt_is(536870912, "512M");
	fmt_is(999999999, "953.7M");
	fmt_is(1000000000, "953.7M");
	fmt_is(1073741824, "1G");
	fmt_is(1610612736, "1.5G");
	fmt_is(10737418240ULL, "10G");
	fmt_is(1099511627776ULL, "1T");
	fmt_is(1649267441664ULL, "1.5T");
	fmt_is(1ULL << 50, "1P");
	fmt_is(1ULL << 60, "1E");
	fmt_is((1ULL << 63) - 1, "8E");
	fmt_is(UINT64_MAX - (1ULL << 59) + 1, "15.5E");
	fmt_is(UINT64_MAX, "16E");

	/* a short buffer is cut and terminated, never overrun */
	memset(buf, 'x', sizeof(buf));
	format_size(1536, buf, 3);
	ok(!strcmp(buf, "1.") && buf[3] == 'x',
	   "format_size(1536) into 3 bytes = \"1.\", nothing past them");
}

static void json_is(const char *s, const char *want)
{
	char buf[128];
	size_t n;

	memset(buf, 'x', sizeof(buf));
	n = json_escape(s, buf, sizeof(buf));
	if (!ok(!strcmp(buf, want) && n == strlen(want),
		"json_escape(\"%s\") = %s", show(s), show(want)))
		printf("#   got %s (length %zu)\n", show(buf), n);
}

static void test_json_escape(void)
{
	char buf[8];
	size_t n;

	json_is("", "\"\"");
	json_is("disk0", "\"disk0\"");
	json_is("a\"b", "\"a\\\"b\"");
	json_is("a\\b", "\"a\\\\b\"");
	json_is("/dev/sbd0", "\"/dev/sbd0\"");
	json_is("\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"");
	json_is("\x01", "\"\\u0001\"");
	json_is("\x1f", "\"\\u001f\"");
	json_is("\x7f", "\"\\u007f\"");
	json_is(" ~", "\" ~\"");
	/* valid UTF-8 stays */
	json_is("\xc3\xa9", "\"\xc3\xa9\"");
	json_is("\xe2\x82\xac", "\"\xe2\x82\xac\"");
	json_is("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
	json_is("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");
	json_is("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");
	/* invalid UTF-8: each bad byte is U+FFFD */
	json_is("\xff", "\"\\ufffd\"");
	json_is("\x80", "\"\\ufffd\"");
	json_is("\xc3", "\"\\ufffd\"");
	json_is("\xc3(", "\"\\ufffd(\"");
	json_is("\xc0\x80", "\"\\ufffd\\ufffd\"");
	json_is("\xc1\xbf", "\"\\ufffd\\ufffd\"");
	json_is("\xe0\x80\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	json_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	json_is("\xe2\x82", "\"\\ufffd\\ufffd\"");
	json_is("\xf0\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	json_is("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	json_is("\xf5\x80", "\"\\ufffd\\ufffd\"");
	json_is("a\xffz", "\"a\\ufffdz\"");

	/* snprintf-like: the length it needs, cut to the buffer */
	n = json_escape("a\"b", NULL, 0);
	ok(n == 6, "json_escape(\"a\\\"b\", NULL, 0) needs 6");
	memset(buf, 'x', sizeof(buf));
	n = json_escape("abcdefgh", buf, 5);
	ok(n == 10 && !strcmp(buf, "\"abc") && buf[5] == 'x',
	   "json_escape into 5 bytes = \"\\\"abc\", returns 10");
	memset(buf, 'x', sizeof(buf));
	n = json_escape("\n", buf, 3);
	ok(n == 4 && !strcmp(buf, "\"\\"),
	   "json_escape of an escape cut in the middle stays terminated");
}

static void esc_is(const char *s, const char *want)
{
	char buf[64];

	table_escape(s, buf, sizeof(buf));
	if (!ok(!strcmp(buf, want), "table_escape(\"%s\") = \"%s\"", show(s),
		show(want)))
		printf("#   got \"%s\"\n", show(buf));
}

static void test_table_escape(void)
{
	char buf[4];

	esc_is("", "");
	esc_is("disk-0.a_b", "disk-0.a_b");
	esc_is("a b", "a\\x20b");
	esc_is("a\\b", "a\\x5cb");
	esc_is("\t\n", "\\x09\\x0a");
	esc_is("\x7f", "\\x7f");
	esc_is("q\"x", "q\"x");
	esc_is("\xc3\xa9", "\xc3\xa9");
	memset(buf, 'x', sizeof(buf));
	table_escape("a b", buf, sizeof(buf));
	ok(!strcmp(buf, "a\\x"), "table_escape cut to the buffer");
}

static void mode_is(const char *s, enum queue_mode want)
{
	enum queue_mode got = parse_queue_mode(s);

	if (!ok(got == want, "parse_queue_mode(\"%s\") is %d", show(s), want))
		printf("#   got %d\n", got);
}

static void test_queue_mode(void)
{
	const char *name;

	mode_is("bio", QUEUE_MODE_BIO);
	mode_is("mq", QUEUE_MODE_MQ);
	mode_is("", QUEUE_MODE_UNKNOWN);
	mode_is("BIO", QUEUE_MODE_UNKNOWN);
	mode_is("Mq", QUEUE_MODE_UNKNOWN);
	mode_is("bio\n", QUEUE_MODE_UNKNOWN);
	mode_is(" mq", QUEUE_MODE_UNKNOWN);
	mode_is("mq ", QUEUE_MODE_UNKNOWN);
	mode_is("bi", QUEUE_MODE_UNKNOWN);
	mode_is("biox", QUEUE_MODE_UNKNOWN);
	mode_is("m", QUEUE_MODE_UNKNOWN);
	mode_is("blk-mq", QUEUE_MODE_UNKNOWN);
	mode_is("(null)", QUEUE_MODE_UNKNOWN);
	ok(QUEUE_MODE_UNKNOWN == 0, "QUEUE_MODE_UNKNOWN is 0: a zeroed entry has it");
	name = queue_mode_name(QUEUE_MODE_BIO);
	ok(name && !strcmp(name, "bio"), "queue_mode_name(QUEUE_MODE_BIO) is \"bio\"");
	name = queue_mode_name(QUEUE_MODE_MQ);
	ok(name && !strcmp(name, "mq"), "queue_mode_name(QUEUE_MODE_MQ) is \"mq\"");
	ok(!queue_mode_name(QUEUE_MODE_UNKNOWN),
	   "queue_mode_name(QUEUE_MODE_UNKNOWN) is NULL");
	ok(!queue_mode_name((enum queue_mode)3), "queue_mode_name(3) is NULL");
	ok(!queue_mode_name((enum queue_mode)-1), "queue_mode_name(-1) is NULL");
	ok(parse_queue_mode(queue_mode_name(QUEUE_MODE_BIO)) == QUEUE_MODE_BIO &&
	   parse_queue_mode(queue_mode_name(QUEUE_MODE_MQ)) == QUEUE_MODE_MQ,
	   "parse_queue_mode(queue_mode_name(m)) is m");
}

static void feat(const char *list, const char *name, bool want)
{
	ok(features_has(list, name) == want, "features_has(\"%s\", \"%s\") is %s",
	   show(list), name, want ? "true" : "false");
}

static void test_features(void)
{
	const char *f = "size,logical_block_size,physical_block_size,power,device,features\n";

	feat(f, "size", true);
	feat(f, "logical_block_size", true);
	feat(f, "power", true);
	feat(f, "features", true);
	feat(f, "block_size", false);
	feat(f, "siz", false);
	feat(f, "sizes", false);
	feat(f, "queue_depth", false);
	feat(f, "", false);
	feat("", "size", false);
	feat("\n", "size", false);
	feat("size", "size", true);
	feat("size,", "size", true);
	feat(" size , power ", "power", true);
	feat(" size , power ", "size", true);
	feat("size,,power", "power", true);
	feat("a,b", "a,b", false);
	feat("size\nrest,power", "power", false);
	feat("size,queue_mode,hw_queues\n", "queue_mode", true);
	feat("size,hw_queues,queue_depth\n", "queue_mode", false);
}

static void name_ok(const char *name, bool want)
{
	ok(valid_disk_name(name) == want, "valid_disk_name(\"%s\") is %s",
	   show(name), want ? "true" : "false");
}

static void test_names(void)
{
	char name[SBDCTL_NAME_MAX + 2];

	name_ok("disk0", true);
	name_ok("my-disk_1.x", true);
	name_ok("a", true);
	name_ok("-x", true);
	name_ok("sbd", true);
	name_ok("sbdx", true);
	name_ok("sbd1x", true);
	name_ok("sbd1p", true);
	name_ok("xsbd1", true);
	name_ok("SBD1", true);
	name_ok("", false);
	name_ok(".", false);
	name_ok("..", false);
	name_ok(".hidden", false);
	name_ok("a/b", false);
	name_ok("a b", false);
	name_ok("disk\n", false);
	name_ok("\xc3\xa9", false);
	name_ok("a:b", false);
	name_ok("sbd0", false);
	name_ok("sbd12", false);
	name_ok("sbd01", false);
	name_ok("sbd1p2", false);
	name_ok("sbd99999999999999", false);
	memset(name, 'a', SBDCTL_NAME_MAX);
	name[SBDCTL_NAME_MAX] = '\0';
	name_ok(name, true);
	name[SBDCTL_NAME_MAX] = 'a';
	name[SBDCTL_NAME_MAX + 1] = '\0';
	ok(!valid_disk_name(name), "valid_disk_name of %d chars is false",
	   SBDCTL_NAME_MAX + 1);
}

static void index_is(const char *s, int want)
{
	int got = sbd_index(s);

	if (!ok(got == want, "sbd_index(\"%s\") = %d", show(s), want))
		printf("#   got %d\n", got);
}

static void test_sbd_index(void)
{
	index_is("sbd0", 0);
	index_is("sbd15", 15);
	index_is("sbd2147483647", 2147483647);
	index_is("sbd2147483648", -1);
	index_is("sbd99999999999999999999", -1);
	index_is("sbd01", -1);
	index_is("sbd00", -1);
	index_is("sbd", -1);
	index_is("sbd-1", -1);
	index_is("sbd1p1", -1);
	index_is("sbda", -1);
	index_is("sbd1 ", -1);
	index_is("xsbd1", -1);
	index_is("SBD1", -1);
	index_is("", -1);
}

static const char *kind_name(enum dev_kind k)
{
	switch (k) {
	case DEV_INDEX: return "DEV_INDEX";
	case DEV_NAME: return "DEV_NAME";
	case DEV_PARTITION: return "DEV_PARTITION";
	default: return "DEV_INVALID";
	}
}

static void dev_is(const char *arg, const char *devdir, enum dev_kind kind,
		   int index)
{
	struct dev_arg d;
	enum dev_kind got = parse_dev_arg(arg, devdir, &d);
	bool pass = got == kind && d.kind == kind;

	if (kind == DEV_NAME)
		pass = pass && d.name == arg && d.index == -1;
	else
		pass = pass && !d.name && (kind == DEV_INVALID || d.index == index);
	if (!ok(pass, "parse_dev_arg(\"%s\", \"%s\") = %s %d", show(arg),
		devdir, kind_name(kind), index))
		printf("#   got %s %d\n", kind_name(got), d.index);
}

/* DEV_NAME for a by-name link: the name is the argument's last part. */
static void by_name_is(const char *arg, const char *devdir, const char *name)
{
	struct dev_arg d;
	enum dev_kind got = parse_dev_arg(arg, devdir, &d);
	bool pass = got == DEV_NAME && d.name && !strcmp(d.name, name) &&
		    d.name == arg + strlen(arg) - strlen(name);

	if (!ok(pass, "parse_dev_arg(\"%s\", \"%s\") = DEV_NAME %s", arg,
		devdir, name))
		printf("#   got %s %s\n", kind_name(got), d.name ? d.name : "-");
}

static void test_dev_arg(void)
{
	by_name_is("/dev/sbd/by-name/scratch", "/dev", "scratch");
	by_name_is("/tmp/x/dev/sbd/by-name/a.b-c", "/tmp/x/dev/", "a.b-c");
	dev_is("/dev/sbd/by-name/", "/dev", DEV_INVALID, -1);
	dev_is("/dev/sbd/by-name/a/b", "/dev", DEV_INVALID, -1);
	dev_is("/dev/sbd/by-name/..", "/dev", DEV_INVALID, -1);
	dev_is("/dev/sbd/by-uuid/x", "/dev", DEV_INVALID, -1);
	dev_is("/tmp/sbd/by-name/x", "/dev", DEV_INVALID, -1);
	dev_is("sbd3", "/dev", DEV_INDEX, 3);
	dev_is("sbd0", "/dev", DEV_INDEX, 0);
	dev_is("/dev/sbd3", "/dev", DEV_INDEX, 3);
	dev_is("/dev/sbd123", "/dev", DEV_INDEX, 123);
	dev_is("/dev/sbd3", "/dev/", DEV_INDEX, 3);
	dev_is("/dev/sbd3", "/dev//", DEV_INDEX, 3);
	dev_is("/tmp/x/dev/sbd4", "/tmp/x/dev", DEV_INDEX, 4);
	dev_is("/sbd1", "/", DEV_INDEX, 1);
	dev_is("sbd3p1", "/dev", DEV_PARTITION, 3);
	dev_is("/dev/sbd3p12", "/dev", DEV_PARTITION, 3);
	dev_is("mydisk", "/dev", DEV_NAME, -1);
	dev_is("disk0", "/dev", DEV_NAME, -1);
	dev_is("sbd", "/dev", DEV_NAME, -1);
	dev_is("sbd3x", "/dev", DEV_NAME, -1);
	dev_is("sbd1p", "/dev", DEV_NAME, -1);
	dev_is("a b", "/dev", DEV_NAME, -1);
	dev_is("/dev/sbd4", "/tmp/x/dev", DEV_INVALID, -1);
	dev_is("/dev/mydisk", "/dev", DEV_INVALID, -1);
	dev_is("/dev/sda", "/dev", DEV_INVALID, -1);
	dev_is("/tmp/sbd3", "/dev", DEV_INVALID, -1);
	dev_is("/devx/sbd3", "/dev", DEV_INVALID, -1);
	dev_is("/dev/sbd3/", "/dev", DEV_INVALID, -1);
	dev_is("/dev//sbd3", "/dev", DEV_INVALID, -1);
	dev_is("/dev/", "/dev", DEV_INVALID, -1);
	dev_is("dev/sbd3", "/dev", DEV_INVALID, -1);
	dev_is("./sbd3", "/dev", DEV_INVALID, -1);
	dev_is("", "/dev", DEV_INVALID, -1);
	dev_is(".", "/dev", DEV_INVALID, -1);
	dev_is("..", "/dev", DEV_INVALID, -1);
	dev_is("sbd01", "/dev", DEV_INVALID, -1);
	dev_is("sbd1p01", "/dev", DEV_INVALID, -1);
	dev_is("sbd99999999999", "/dev", DEV_INVALID, -1);
	dev_is("/dev/sbd01", "/dev", DEV_INVALID, -1);
}

static void free_is(const char *const *names, size_t n, unsigned int want,
		    const char *what)
{
	unsigned int got = first_free_disk_name(names, n);

	if (!ok(got == want, "first_free_disk_name(%s) = disk%u", what, want))
		printf("#   got disk%u\n", got);
}

static void test_free_name(void)
{
	static const char *const a[] = { "disk0" };
	static const char *const b[] = { "disk1" };
	static const char *const c[] = { "disk0", "disk2" };
	static const char *const d[] = { "disk2", "disk1", "disk0" };
	static const char *const e[] = { "disk00", "disk01", "Disk0" };
	static const char *const f[] = { ".", "..", "foo", "disk0", "bar" };

	free_is(NULL, 0, 0, "none");
	free_is(a, 1, 1, "disk0");
	free_is(b, 1, 0, "disk1");
	free_is(c, 2, 1, "disk0 disk2");
	free_is(d, 3, 3, "disk2 disk1 disk0");
	free_is(e, 3, 0, "disk00 disk01 Disk0");
	free_is(f, 5, 1, ". .. foo disk0 bar");
}

static void test_entry_cmp(void)
{
	struct sbd_entry e[6] = {
		{ .index = 10 }, { .index = -1, .name = "zeta" },
		{ .index = 2 }, { .index = -1, .name = "beta" },
		{ .index = 0, .name = "zz" }, { .index = -1, .name = "alpha" },
	};
	static const int want_index[6] = { 0, 2, 10, -1, -1, -1 };
	static const char *const want_name[6] = { "zz", "", "", "alpha",
						  "beta", "zeta" };
	bool pass = true;
	int i;

	ok(entry_cmp(&e[2], &e[0]) < 0, "entry_cmp: sbd2 before sbd10");
	ok(entry_cmp(&e[0], &e[2]) > 0, "entry_cmp: sbd10 after sbd2");
	ok(entry_cmp(&e[0], &e[1]) < 0, "entry_cmp: a device before an off item");
	ok(entry_cmp(&e[1], &e[0]) > 0, "entry_cmp: an off item after a device");
	ok(entry_cmp(&e[3], &e[1]) < 0, "entry_cmp: off items by name");
	ok(entry_cmp(&e[3], &e[3]) == 0, "entry_cmp: equal to itself");
	qsort(e, 6, sizeof(e[0]), entry_cmp);
	for (i = 0; i < 6; i++)
		pass = pass && e[i].index == want_index[i] &&
		       !strcmp(e[i].name, want_name[i]);
	ok(pass, "entry_cmp sorts sbd0 sbd2 sbd10 alpha beta zeta");
}

static void test_exit_codes(void)
{
	ok(SBDCTL_EXIT_OK == 0 && SBDCTL_EXIT_FAIL == 1 &&
	   SBDCTL_EXIT_USAGE == 2 && SBDCTL_EXIT_NOMOD == 3 &&
	   SBDCTL_EXIT_NODEV == 4, "exit codes are 0 1 2 3 4 as documented");
}

int main(void)
{
	test_parse_size();
	test_parse_uint();
	test_parse_attr();
	test_format_size();
	test_json_escape();
	test_table_escape();
	test_queue_mode();
	test_features();
	test_names();
	test_sbd_index();
	test_dev_arg();
	test_free_name();
	test_entry_cmp();
	test_exit_codes();
	printf("1..%d\n", tests);
	if (failures)
		printf("# %d of %d failed\n", failures, tests);
	return failures ? 1 : 0;
}
