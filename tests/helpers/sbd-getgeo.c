// SPDX-License-Identifier: GPL-2.0
/*
 * sbd-getgeo DEVICE: prints the HDIO_GETGEO answer for a block device as
 * "heads=H sectors=S cylinders=C start=N", for the tests and the demo.
 */
#include <fcntl.h>
#include <linux/hdreg.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct hd_geometry geo;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: sbd-getgeo DEVICE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "sbd-getgeo: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (ioctl(fd, HDIO_GETGEO, &geo)) {
		fprintf(stderr, "sbd-getgeo: HDIO_GETGEO on %s: %s\n", argv[1],
			strerror(errno));
		close(fd);
		return 1;
	}
	printf("heads=%u sectors=%u cylinders=%u start=%lu\n", geo.heads,
	       geo.sectors, geo.cylinders, geo.start);
	close(fd);
	return 0;
}
