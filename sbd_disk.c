// SPDX-License-Identifier: GPL-2.0
/*
 * sbd disk lifecycle.  A disk (struct sbd_dev) is its configuration and
 * backing store, which live as long as the disk is defined, plus a gendisk
 * (and in mq mode a tag set), which exist only while it is powered on.
 * Powering off keeps the data; removing the disk frees it at once, and the
 * sbd_dev goes with its last reference.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hdreg.h>
#include <linux/idr.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sbd.h"
#include "sbd_compat.h"

/*
 * The classic made-up geometry: 4 heads of 16 sectors, so a cylinder is
 * 64 sectors of 512 bytes.  The cylinder count saturates at what the
 * 16-bit field holds; tools use the capacity for anything bigger.
 */
void sbd_fill_geometry(u64 nr_sectors, struct hd_geometry *geo)
{
	geo->heads = 4;
	geo->sectors = 16;
	geo->cylinders = min_t(u64, nr_sectors >> 6, USHRT_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(sbd_fill_geometry);

/* geo->start is the partition's offset, which the block layer fills in. */
int sbd_getgeo(struct gendisk *disk, struct hd_geometry *geo)
{
	sbd_fill_geometry(get_capacity(disk), geo);
	return 0;
}

/* Disk numbers, N of sbdN, shared by parameter and runtime disks. */
static DEFINE_IDA(sbd_indexes);

const char * const sbd_queue_mode_names[SBD_QUEUE_NR] = {
	[SBD_QUEUE_BIO]	= "bio",
	[SBD_QUEUE_MQ]	= "mq",
};

/* "bio" or "mq", with or without a newline: the mode, or -EINVAL. */
int sbd_parse_queue_mode(const char *s)
{
	int mode = sysfs_match_string(sbd_queue_mode_names, s);

	return mode < 0 ? -EINVAL : mode;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_parse_queue_mode);

const char *sbd_dev_name(struct sbd_dev *dev)
{
	if (dev->group.cg_item.ci_name)
		return config_item_name(&dev->group.cg_item);
	return dev->disk ? dev->disk->disk_name : SBD_NAME;
}

struct sbd_dev *sbd_dev_alloc(const struct sbd_config *config)
{
	struct sbd_dev *dev;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return NULL;
	dev->stats = alloc_percpu(struct sbd_stats);
	if (!dev->stats) {
		kfree(dev);
		return NULL;
	}
	kref_init(&dev->ref);
	mutex_init(&dev->lock);
	dev->config = *config;
	/* Who the disk is to others (an NVMe namespace's UUID, say). */
	uuid_gen(&dev->uuid);
	dev->index = -1;
	sbd_store_init(&dev->store);
	sbd_cache_init(&dev->cache);
	sbd_fault_init(dev);
	return dev;
}

static void sbd_dev_release(struct kref *ref)
{
	struct sbd_dev *dev = container_of(ref, struct sbd_dev, ref);

	sbd_log_put(dev->log);
	sbd_crash_origin_free(dev->origin);
	sbd_cache_destroy(&dev->cache);
	sbd_store_destroy(&dev->store);
	free_percpu(dev->stats);
	mutex_destroy(&dev->lock);
	kfree(dev);
}

void sbd_dev_put(struct sbd_dev *dev)
{
	kref_put(&dev->ref, sbd_dev_release);
}

/* The last reference to a gendisk drops its reference to the sbd_dev. */
static void sbd_free_disk(struct gendisk *disk)
{
	sbd_dev_put(disk->private_data);
}

/* A bio-based disk is one whose operations have ->submit_bio. */
static const struct block_device_operations sbd_bio_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= sbd_submit_bio,
	.getgeo		= sbd_compat_getgeo,
	.free_disk	= sbd_free_disk,
};

static const struct block_device_operations sbd_mq_fops = {
	.owner		= THIS_MODULE,
	.getgeo		= sbd_compat_getgeo,
	.free_disk	= sbd_free_disk,
};

static bool sbd_dev_is_mq(struct sbd_dev *dev)
{
	return dev->config.queue_mode == SBD_QUEUE_MQ;
}

/* Every attribute is checked when written, against the others too. */
static int sbd_check_size(struct sbd_dev *dev, u64 size)
{
	if (!size || size % dev->config.logical_block_size) {
		pr_warn("%s: size=%llu is invalid: must be a non-zero multiple of logical_block_size=%llu\n",
			sbd_dev_name(dev), size, dev->config.logical_block_size);
		return -EINVAL;
	}
	return 0;
}

static struct gendisk *sbd_alloc_disk(struct sbd_dev *dev)
{
	const struct sbd_config *c = &dev->config;
	struct queue_limits lim = {
		.logical_block_size	= c->logical_block_size,
		.physical_block_size	= c->physical_block_size,
		.max_hw_sectors		= SBD_MAX_HW_SECTORS,
		.max_segments		= SBD_MAX_HW_SECTORS >> PAGE_SECTORS_SHIFT,
		.max_write_zeroes_sectors = UINT_MAX >> SECTOR_SHIFT,
	};

	if (c->discard) {
		lim.max_hw_discard_sectors = UINT_MAX >> SECTOR_SHIFT;
		/* Whole pages are what the store allocates and frees. */
		lim.discard_granularity = PAGE_SIZE;
	}
	return sbd_compat_alloc_disk(sbd_dev_is_mq(dev) ? &dev->tag_set : NULL,
				     &lim, c->cache, dev);
}

/*
 * Creates the block device from the configuration.  Called with dev->lock
 * held; undoes everything on failure.
 */
int sbd_dev_power_on(struct sbd_dev *dev)
{
	struct gendisk *disk;
	int index, ret;

	lockdep_assert_held(&dev->lock);
	if (dev->disk)
		return 0;

	/* Each disk owns sbd_minors minors, whatever it uses of them. */
	index = ida_alloc_max(&sbd_indexes, (MINORMASK + 1) / sbd_minors - 1,
			      GFP_KERNEL);
	if (index < 0)
		return index;
	if (sbd_dev_is_mq(dev)) {
		ret = sbd_mq_alloc_tag_set(dev);
		if (ret)
			goto err_free_index;
	}
	disk = sbd_alloc_disk(dev);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto err_free_tag_set;
	}
	disk->major = sbd_major;
	disk->first_minor = index * sbd_minors;
	disk->minors = dev->config.partitions + 1;
	if (!dev->config.partitions)
		disk->flags |= GENHD_FL_NO_PART;
	disk->fops = sbd_dev_is_mq(dev) ? &sbd_mq_fops : &sbd_bio_fops;
	disk->private_data = dev;
	snprintf(disk->disk_name, DISK_NAME_LEN, SBD_NAME "%d", index);
	set_capacity(disk, dev->config.size >> SECTOR_SHIFT);

	/* Set first: the partition scan in device_add_disk() does I/O. */
	dev->index = index;
	dev->disk = disk;
	sbd_fault_start(dev);
	sbd_dev_update_plain(dev);
	ret = device_add_disk(NULL, disk, sbd_disk_groups);
	if (ret)
		goto err_put_disk;
	/* Added, so ->free_disk will run, and drops this reference. */
	kref_get(&dev->ref);
	/* Only now: the change is announced on the disk's device. */
	set_disk_ro(disk, dev->config.read_only);
	return 0;

err_put_disk:
	sbd_fault_stop(dev);
	dev->disk = NULL;
	dev->index = -1;
	put_disk(disk);
err_free_tag_set:
	if (sbd_dev_is_mq(dev))
		sbd_mq_free_tag_set(dev);
err_free_index:
	ida_free(&sbd_indexes, index);
	return ret;
}

/*
 * Removes the block device and keeps the data.  Delayed completions and
 * those waiting for a poll end first, and no new one waits; once
 * del_gendisk() returns no request is in flight and none can start, so the
 * tag set can go.  The gendisk itself may live on while someone still has
 * it open.
 */
void sbd_dev_power_off(struct sbd_dev *dev)
{
	struct gendisk *disk = dev->disk;

	lockdep_assert_held(&dev->lock);
	if (!disk)
		return;
	sbd_fault_stop(dev);
	sbd_poll_stop(dev);
	del_gendisk(disk);
	if (sbd_dev_is_mq(dev))
		sbd_mq_free_tag_set(dev);
	ida_free(&sbd_indexes, dev->index);
	/* An orderly power off: what the cache held is written out. */
	mutex_lock(&dev->cache.lock);
	sbd_cache_flush(dev);
	mutex_unlock(&dev->cache.lock);
	sbd_fault_set_power_cut(dev, false);
	dev->disk = NULL;
	dev->index = -1;
	put_disk(disk);
}

/*
 * The disk goes for good: power it off and give its memory back now, not
 * when the last opener of the old gendisk (udev, say) lets go of it.  No
 * request can reach the store once del_gendisk() has returned.
 */
void sbd_dev_remove(struct sbd_dev *dev)
{
	mutex_lock(&dev->lock);
	sbd_dev_power_off(dev);
	sbd_store_destroy(&dev->store);
	sbd_log_put(dev->log);
	dev->log = NULL;
	sbd_dev_update_plain(dev);
	mutex_unlock(&dev->lock);
}

/*
 * Waits until nothing issued to the disk is in flight, and holds new I/O
 * back until sbd_dev_resume().  The queue's freeze waits for requests and
 * for bios inside ->submit_bio; delayed completions, whose work is done
 * but which may wait long (a bandwidth backlog), end first, and none is
 * delayed meanwhile.  So do polled ones, since nobody can poll a queue
 * being frozen.  A powered-off disk has no I/O to wait for.
 */
void sbd_dev_quiesce(struct sbd_dev *dev)
{
	lockdep_assert_held(&dev->lock);
	if (!dev->disk)
		return;
	sbd_fault_stop(dev);
	sbd_poll_stop(dev);
	sbd_compat_freeze_queue(dev->disk->queue);
}

void sbd_dev_resume(struct sbd_dev *dev)
{
	lockdep_assert_held(&dev->lock);
	if (!dev->disk)
		return;
	sbd_compat_unfreeze_queue(dev->disk->queue);
	sbd_poll_start(dev);
	sbd_fault_start(dev);
}

/*
 * Resize, with dev->lock held, powered on or not.  Data below the new size
 * stays.  A shrink first publishes the new capacity, then waits for the
 * requests that were checked against the old one, and only then frees
 * what lies beyond.  A bio that passed the block layer's end check before
 * the shrink but reached the disk after it may still write past the end
 * of a plain disk (sbd_io_run()): a grow clears what lies past the old end
 * first, with no request in flight, so the new space reads zeros.
 */
int sbd_dev_resize(struct sbd_dev *dev, u64 size)
{
	lockdep_assert_held(&dev->lock);
	if (sbd_check_size(dev, size))
		return -EINVAL;
	/* A snapshot, its log and its crash states are of one size. */
	if (dev->store.base && size != dev->config.size) {
		pr_warn("%s: size cannot change while the disk has a snapshot\n",
			sbd_dev_name(dev));
		return -EBUSY;
	}
	if (size > dev->config.size) {
		sbd_dev_quiesce(dev);
		sbd_store_truncate(&dev->store, dev->config.size);
		if (dev->disk)
			set_capacity_and_notify(dev->disk, size >> SECTOR_SHIFT);
		sbd_dev_resume(dev);
		return 0;
	}
	if (dev->disk)
		set_capacity_and_notify(dev->disk, size >> SECTOR_SHIFT);
	if (size < dev->config.size) {
		sbd_dev_quiesce(dev);
		sbd_dev_resume(dev);
		sbd_store_truncate(&dev->store, size);
		mutex_lock(&dev->cache.lock);
		sbd_cache_truncate(dev, size);
		mutex_unlock(&dev->cache.lock);
	}
	return 0;
}

/*
 * With dev->lock held, after read_only, an error rule, a delay, a power
 * cut, the write cache or the write log changed, and at power on: whether
 * the I/O core may skip all of them (sbd_io.h).  A request that reads the
 * old value while it changes behaves as if it had come a moment earlier.
 */
void sbd_dev_update_plain(struct sbd_dev *dev)
{
	lockdep_assert_held(&dev->lock);
	WRITE_ONCE(dev->plain, !dev->config.read_only &&
		   !READ_ONCE(dev->fault.active) && !dev->config.cache &&
		   !dev->log);
}

/*
 * The block layer refuses to open a read-only disk for writing, but does
 * not fail writes from those who opened it before; sbd_io.h does that.
 */
int sbd_dev_set_read_only(struct sbd_dev *dev, u64 read_only)
{
	lockdep_assert_held(&dev->lock);
	WRITE_ONCE(dev->config.read_only, read_only);
	sbd_dev_update_plain(dev);
	if (dev->disk)
		set_disk_ro(dev->disk, read_only);
	return 0;
}
