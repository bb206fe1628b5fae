// SPDX-License-Identifier: GPL-2.0
/*
 * sbd: the simple block device.
 *
 * The classic "sbd" RAM disk of the 2.6 days, with its nsectors and
 * hardsect_size parameters, rebuilt for today's block layer, bio-based
 * like brd or on blk-mq (queue_mode): a sparse RAM disk whose memory is
 * allocated when a page is first written and given back on discard.
 * This file holds the module parameters and load/unload.  The parameters
 * make the disks that exist at load time; configfs makes more at runtime
 * (sbd_configfs.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>

#include "sbd.h"

static unsigned long long nsectors = 131072;
module_param(nsectors, ullong, 0444);
MODULE_PARM_DESC(nsectors, "Logical blocks per disk (default 131072: 64 MiB with 512-byte blocks)");

static int hardsect_size = SECTOR_SIZE;
module_param(hardsect_size, int, 0444);
MODULE_PARM_DESC(hardsect_size, "Logical block size in bytes: 512, 1024, 2048 or 4096, at most PAGE_SIZE (default 512)");

static int ndevices = 1;
module_param(ndevices, int, 0444);
MODULE_PARM_DESC(ndevices, "Number of disks made at load time, sbd0 to sbdN-1: 0 to 256 (default 1)");

static int max_part = 15;
module_param(max_part, int, 0444);
MODULE_PARM_DESC(max_part, "Partitions per disk: 0 (none) to 255 (default 15, i.e. 16 minors)");

static int major_num;
module_param(major_num, int, 0444);
MODULE_PARM_DESC(major_num, "Block major number: 0 for a dynamic one (default), else 1 to 511");

static char *queue_mode = "bio";
module_param(queue_mode, charp, 0444);
MODULE_PARM_DESC(queue_mode, "How requests reach the disks: bio (->submit_bio, like brd; default) or mq (blk-mq); runtime disks start with it too");

static int poll_queues;
module_param(poll_queues, int, 0444);
MODULE_PARM_DESC(poll_queues, "Poll queues of each disk made at load time, for polled I/O (io_uring IOPOLL, RWF_HIPRI): 0 (default) to the number of CPUs; queue_mode=mq only");

int sbd_major;
unsigned int sbd_minors;
enum sbd_queue_mode sbd_default_queue_mode;
/* The disks made from the parameters; configfs owns the others. */
static LIST_HEAD(sbd_devs);

/*
 * The parameters as given: nsectors, hardsect_size, ndevices, max_part,
 * major_num and queue_mode.  Each bad one is named, with what it must be.
 */
VISIBLE_IF_KUNIT int sbd_check_params(u64 blocks, int block_size, int disks,
				      int parts, int major, const char *mode)
{
	bool overflow;
	u64 bytes;

	if (block_size < SBD_MIN_BLOCK_SIZE ||
	    block_size > SBD_MAX_BLOCK_SIZE ||
	    block_size > PAGE_SIZE || !is_power_of_2(block_size)) {
		pr_err("hardsect_size=%d is invalid: must be a power of two from %d to %lu\n",
		       block_size, SBD_MIN_BLOCK_SIZE,
		       min_t(unsigned long, SBD_MAX_BLOCK_SIZE, PAGE_SIZE));
		return -EINVAL;
	}
	overflow = check_mul_overflow(blocks, (u64)block_size, &bytes);
	if (!blocks || overflow || bytes > SBD_MAX_BYTES) {
		pr_err("nsectors=%llu is invalid: must be 1 to %llu blocks of %d bytes\n",
		       blocks, SBD_MAX_BYTES / block_size, block_size);
		return -EINVAL;
	}
	if (disks < 0 || disks > SBD_MAX_DEVICES) {
		pr_err("ndevices=%d is invalid: must be 0 to %d\n",
		       disks, SBD_MAX_DEVICES);
		return -EINVAL;
	}
	if (parts < 0 || parts > SBD_MAX_PART) {
		pr_err("max_part=%d is invalid: must be 0 to %d\n",
		       parts, SBD_MAX_PART);
		return -EINVAL;
	}
	if (major < 0 || major >= BLKDEV_MAJOR_MAX) {
		pr_err("major_num=%d is invalid: must be 0 (dynamic) to %d\n",
		       major, BLKDEV_MAJOR_MAX - 1);
		return -EINVAL;
	}
	if (!mode || sbd_parse_queue_mode(mode) < 0) {
		pr_err("queue_mode=%s is invalid: must be bio or mq\n",
		       mode ? mode : "");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_check_params);

/* poll_queues, given a valid queue_mode: only blk-mq has poll queues. */
VISIBLE_IF_KUNIT int sbd_check_poll_queues(int polls, const char *mode)
{
	if (polls < 0 || polls > (int)nr_cpu_ids) {
		pr_err("poll_queues=%d is invalid: must be 0 to %u\n",
		       polls, nr_cpu_ids);
		return -EINVAL;
	}
	if (polls && sbd_parse_queue_mode(mode) != SBD_QUEUE_MQ) {
		pr_err("poll_queues=%d is refused: it needs queue_mode=mq\n",
		       polls);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_check_poll_queues);

/*
 * No code of the module may run after it is gone: a delayed completion's
 * timer callback, an RCU read-side section like any hard or soft interrupt
 * handler, may still be returning after the last one ended
 * (synchronize_rcu() waits for it), and discarded pages may still wait for
 * their RCU callback (rcu_barrier()).
 */
static void sbd_rcu_drain(void)
{
	synchronize_rcu();
	rcu_barrier();
}

static void sbd_destroy_all(void)
{
	struct sbd_dev *dev, *next;

	list_for_each_entry_safe(dev, next, &sbd_devs, list) {
		list_del(&dev->list);
		sbd_dev_remove(dev);
		sbd_dev_put(dev);
	}
}

static int __init sbd_create_param_disks(void)
{
	struct sbd_config config = {
		.size			= nsectors * hardsect_size,
		.logical_block_size	= hardsect_size,
		/* Whole pages are what the store allocates and frees. */
		.physical_block_size	= max_t(unsigned int, hardsect_size,
						PAGE_SIZE),
		.hw_queues		= nr_cpu_ids,
		.queue_depth		= SBD_QUEUE_DEPTH,
		.poll_queues		= poll_queues,
		.partitions		= max_part,
		.discard		= 1,
		.queue_mode		= sbd_default_queue_mode,
	};
	int i, ret;

	for (i = 0; i < ndevices; i++) {
		struct sbd_dev *dev = sbd_dev_alloc(&config);

		if (!dev)
			return -ENOMEM;
		mutex_lock(&dev->lock);
		ret = sbd_dev_power_on(dev);
		mutex_unlock(&dev->lock);
		if (ret) {
			pr_err("cannot create %s%d: %d\n", SBD_NAME, i, ret);
			sbd_dev_put(dev);
			return ret;
		}
		list_add_tail(&dev->list, &sbd_devs);
	}
	return 0;
}

static int __init sbd_init(void)
{
	int ret;

	ret = sbd_check_params(nsectors, hardsect_size, ndevices, max_part,
			       major_num, queue_mode);
	if (!ret)
		ret = sbd_check_poll_queues(poll_queues, queue_mode);
	if (ret)
		return ret;
	sbd_minors = max_part + 1;
	sbd_default_queue_mode = sbd_parse_queue_mode(queue_mode);

	ret = sbd_bio_init();
	if (ret)
		return ret;
	ret = register_blkdev(major_num, SBD_NAME);
	if (ret < 0) {
		pr_err("cannot register block major %d: %d\n", major_num, ret);
		sbd_bio_exit();
		return ret;
	}
	sbd_major = major_num ? major_num : ret;

	ret = sbd_create_param_disks();
	if (ret)
		goto err_destroy;
	ret = sbd_configfs_init();
	if (ret)
		goto err_destroy;
	pr_info("%d disk(s) of %llu bytes, block size %d, major %d, queue_mode %s\n",
		ndevices, nsectors * hardsect_size, hardsect_size, sbd_major,
		sbd_queue_mode_names[sbd_default_queue_mode]);
	return 0;

err_destroy:
	sbd_destroy_all();
	unregister_blkdev(sbd_major, SBD_NAME);
	sbd_rcu_drain();
	sbd_bio_exit();
	return ret;
}

/* configfs holds a module reference per runtime disk: none is left. */
static void __exit sbd_exit(void)
{
	sbd_configfs_exit();
	sbd_destroy_all();
	unregister_blkdev(sbd_major, SBD_NAME);
	sbd_rcu_drain();
	sbd_bio_exit();
}

module_init(sbd_init);
module_exit(sbd_exit);

MODULE_DESCRIPTION("sbd: the simple block device, a sparse RAM disk and test device");
MODULE_AUTHOR("The sbd developers");
MODULE_LICENSE("GPL");
