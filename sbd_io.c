// SPDX-License-Identifier: GPL-2.0
/*
 * sbd I/O core, its out-of-line part (the rest is inline, in sbd_io.h):
 * what a request needs when the disk is not plain (read-only, or a test
 * feature on: the write cache, the write log, error rules, delays, a power
 * cut), or when it carries a REQ_PREFLUSH.
 */
#include <linux/mutex.h>

#include "sbd_io.h"

/*
 * With the write cache on, everything that changes the disk runs under the
 * cache lock: first the durable contents of the blocks it changes are kept
 * aside, then the change is made.  So does everything a write log records,
 * in the order it is done.  REQ_NOWAIT does not wait for the lock.
 */
int sbd_io_lock(struct sbd_dev *dev, const struct sbd_io *io)
{
	if (io->flags & REQ_NOWAIT) {
		if (!mutex_trylock(&dev->cache.lock))
			return -EAGAIN;
	} else {
		mutex_lock(&dev->cache.lock);
	}
	/* Power may have been cut while this request waited for the lock. */
	if (READ_ONCE(dev->fault.cut)) {
		mutex_unlock(&dev->cache.lock);
		return -EIO;
	}
	return 0;
}

/* The flush a write's REQ_PREFLUSH asks for, checked like any flush. */
blk_status_t sbd_io_preflush(struct sbd_dev *dev, const struct sbd_io *io)
{
	const struct sbd_io flush = {
		.op	= REQ_OP_FLUSH,
		.flags	= io->flags & REQ_NOWAIT,
	};

	return sbd_io_submit(dev, &flush);
}

/*
 * sbd_io_submit() for a disk that is not plain.  @io is passed by
 * value so that the front ends never take its address: on their common
 * path it then stays in registers.
 */
blk_status_t sbd_io_submit_test(struct sbd_dev *dev, struct sbd_io io)
{
	return sbd_io_run(dev, &io, true);
}
