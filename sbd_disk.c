// SPDX-License-Identifier: GPL-2.0
/*
 * sbd disk lifecycle: a disk is a tag set, a gendisk and a backing store.
 * sbd_dev_create() builds all three and undoes its work on any failure;
 * sbd_dev_destroy() removes the disk, and the memory goes when the last
 * reference to the gendisk does (->free_disk).
 */
#include <linux/hdreg.h>
#include <linux/percpu.h>
#include <linux/slab.h>

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

/* geo->start is the partition's offset, which the block layer fills in. */
int sbd_getgeo(struct gendisk *disk, struct hd_geometry *geo)
{
	sbd_fill_geometry(get_capacity(disk), geo);
	return 0;
}

static void sbd_free_disk(struct gendisk *disk)
{
	struct sbd_dev *dev = disk->private_data;

	sbd_store_destroy(&dev->store);
	free_percpu(dev->stats);
	kfree(dev);
}

static const struct block_device_operations sbd_fops = {
	.owner		= THIS_MODULE,
	.getgeo		= sbd_compat_getgeo,
	.free_disk	= sbd_free_disk,
};

static int sbd_init_tag_set(struct sbd_dev *dev)
{
	struct blk_mq_tag_set *set = &dev->tag_set;

	set->ops = &sbd_mq_ops;
	set->nr_hw_queues = dev->config.nr_hw_queues;
	set->queue_depth = dev->config.queue_depth;
	set->numa_node = NUMA_NO_NODE;
	/* BLOCKING: the first write to a page allocates it with GFP_NOIO. */
	set->flags = SBD_MQ_F_MERGE | BLK_MQ_F_BLOCKING;
	set->driver_data = dev;
	return blk_mq_alloc_tag_set(set);
}

struct sbd_dev *sbd_dev_create(int index, const struct sbd_config *config)
{
	struct queue_limits lim = {
		.logical_block_size	= config->block_size,
		/* Whole pages are what the store allocates and frees. */
		.physical_block_size	= max_t(unsigned int, config->block_size,
						PAGE_SIZE),
		.max_hw_sectors		= SBD_MAX_HW_SECTORS,
		.max_segments		= SBD_MAX_HW_SECTORS >> PAGE_SECTORS_SHIFT,
		.max_hw_discard_sectors	= UINT_MAX >> SECTOR_SHIFT,
		.max_write_zeroes_sectors = UINT_MAX >> SECTOR_SHIFT,
		.discard_granularity	= PAGE_SIZE,
	};
	struct gendisk *disk;
	struct sbd_dev *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	dev->index = index;
	dev->config = *config;
	sbd_store_init(&dev->store);
	dev->stats = alloc_percpu(struct sbd_stats);
	if (!dev->stats) {
		ret = -ENOMEM;
		goto err_free_dev;
	}

	ret = sbd_init_tag_set(dev);
	if (ret)
		goto err_free_stats;

	disk = sbd_compat_alloc_disk(&dev->tag_set, &lim, dev);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto err_free_tag_set;
	}
	dev->disk = disk;
	disk->major = sbd_major;
	disk->first_minor = index * sbd_minors;
	disk->minors = sbd_minors;
	if (sbd_minors == 1)
		disk->flags |= GENHD_FL_NO_PART;
	disk->fops = &sbd_fops;
	disk->private_data = dev;
	snprintf(disk->disk_name, DISK_NAME_LEN, SBD_NAME "%d", index);
	set_capacity(disk, config->size >> SECTOR_SHIFT);

	ret = device_add_disk(NULL, disk, sbd_disk_groups);
	if (ret)
		goto err_put_disk;
	return dev;

err_put_disk:
	/* Never added, so ->free_disk will not run: free by hand below. */
	put_disk(disk);
err_free_tag_set:
	blk_mq_free_tag_set(&dev->tag_set);
err_free_stats:
	free_percpu(dev->stats);
err_free_dev:
	kfree(dev);
	return ERR_PTR(ret);
}

/*
 * Removes the disk.  Once del_gendisk() returns no request is in flight
 * and none can start, so the tag set can go; the store and @dev go with
 * the last reference to the gendisk, which may outlive this call.
 */
void sbd_dev_destroy(struct sbd_dev *dev)
{
	struct gendisk *disk = dev->disk;

	del_gendisk(disk);
	blk_mq_free_tag_set(&dev->tag_set);
	put_disk(disk);
}
