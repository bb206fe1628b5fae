// SPDX-License-Identifier: GPL-2.0
/*
 * sbd-blkrange OP DEVICE OFFSET LENGTH: issues BLKDISCARD, BLKZEROOUT or
 * BLKSECDISCARD on exactly that byte range (blkdiscard(8) clamps ranges to
 * the device, which would hide how the kernel treats a range past the end).
 * Prints "ok" or the errno name and exits 0 or 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	case ENOTTY: return "ENOTTY";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	unsigned long req;
	uint64_t range[2];
	int fd, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: sbd-blkrange discard|zeroout|secdiscard DEVICE OFFSET LENGTH\n");
		return 2;
	}
	if (!strcmp(argv[1], "discard"))
		req = BLKDISCARD;
	else if (!strcmp(argv[1], "zeroout"))
		req = BLKZEROOUT;
	else if (!strcmp(argv[1], "secdiscard"))
		req = BLKSECDISCARD;
	else {
		fprintf(stderr, "sbd-blkrange: unknown operation '%s'\n", argv[1]);
		return 2;
	}
	range[0] = strtoull(argv[3], NULL, 0);
	range[1] = strtoull(argv[4], NULL, 0);
	fd = open(argv[2], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "sbd-blkrange: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	ret = ioctl(fd, req, range);
	printf("%s\n", ret ? errno_name(errno) : "ok");
	close(fd);
	return ret ? 1 : 0;
}
