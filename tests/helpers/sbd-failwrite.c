// SPDX-License-Identifier: GPL-2.0
/*
 * sbd-failwrite DEV OFFSET LEN BYTE: one O_DIRECT write of LEN bytes of
 * BYTE at OFFSET, made while this task is marked for fault injection
 * (/proc/self/make-it-fail, see Documentation/fault-injection).  The buffer
 * is allocated, touched and locked first, so that the only allocations the
 * mark can fail are the kernel's, for the write.  Prints "ok" or the errno
 * name of the failed write; exits 0 either way, 1 if it could not try.
 *
 * sbd-failwrite --attr FILE FIRST VALUE: the same for a write of VALUE to
 * an attribute (configfs), through a file on which FIRST was written
 * before the mark: configfs allocates its buffer on the first write, and
 * what is tested is the driver's own allocations.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int make_it_fail(int on)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Locks the pages mapped so far, then writes LEN bytes of BUF to FD while
 * this task is marked: with pwrite() at *OFF, or with write() at the file's
 * position if OFF is NULL.  Prints "ok", the errno name of a failed write,
 * or "short write" (followed by its byte count if COUNT).  Returns 0, or 1
 * if it could not try.
 */
static int marked_write(int fd, const void *buf, size_t len, const off_t *off,
			int count)
{
	ssize_t n;
	int err;

	if (mlockall(MCL_CURRENT)) {
		perror("mlockall");
		return 1;
	}
	if (make_it_fail(1)) {
		perror("/proc/self/make-it-fail");
		return 1;
	}
	n = off ? pwrite(fd, buf, len, *off) : write(fd, buf, len);
	err = errno;
	make_it_fail(0);
	if (n == (ssize_t)len)
		printf("ok\n");
	else if (n < 0)
		printf("%s\n", strerrorname_np(err));
	else if (count)
		printf("short write of %zd bytes\n", n);
	else
		printf("short write\n");
	return 0;
}

static int attr_write(const char *path, const char *first, const char *value)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, first, strlen(first)) != (ssize_t)strlen(first)) {
		perror(path);
		return 1;
	}
	if (marked_write(fd, value, strlen(value), NULL, 0))
		return 1;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	size_t len;
	off_t off;
	void *buf;
	int fd;

	if (argc == 5 && !strcmp(argv[1], "--attr"))
		return attr_write(argv[2], argv[3], argv[4]);
	if (argc != 5) {
		fprintf(stderr, "usage: sbd-failwrite DEV OFFSET LEN BYTE\n"
			"       sbd-failwrite --attr FILE FIRST VALUE\n");
		return 1;
	}
	off = strtoll(argv[2], NULL, 0);
	len = strtoull(argv[3], NULL, 0);
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, len)) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, (int)strtol(argv[4], NULL, 0), len);
	return marked_write(fd, buf, len, &off, 1);
}
