// SPDX-License-Identifier: GPL-2.0
/*
 * sbd per-disk sysfs: /sys/block/sbdN/sbd/ shows how requests reach a
 * disk, the memory it holds and how many requests of each kind it has
 * served, for every disk.
 */
#include <linux/device.h>
#include <linux/percpu.h>
#include <linux/sysfs.h>

#include "sbd.h"

u64 sbd_stat_read(struct sbd_dev *dev, enum sbd_stat stat)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(dev->stats, cpu)->count[stat];
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_stat_read);

static struct sbd_dev *sbd_dev_of(struct device *d)
{
	return dev_to_disk(d)->private_data;
}

/* The configfs item that made the disk; empty for parameter disks. */
static ssize_t name_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	struct sbd_dev *dev = sbd_dev_of(d);

	return sysfs_emit(buf, "%s\n", dev->group.cg_item.ci_name ?
			  config_item_name(&dev->group.cg_item) : "");
}
static DEVICE_ATTR_RO(name);

static ssize_t queue_mode_show(struct device *d, struct device_attribute *attr,
			       char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  sbd_queue_mode_names[sbd_dev_of(d)->config.queue_mode]);
}
static DEVICE_ATTR_RO(queue_mode);

/* The disk's identity; a runtime disk's configfs uuid sets it. */
static ssize_t uuid_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	struct sbd_dev *dev = sbd_dev_of(d);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = sysfs_emit(buf, "%pUb\n", &dev->uuid);
	mutex_unlock(&dev->lock);
	return len;
}
static DEVICE_ATTR_RO(uuid);

/* Poll queues the disk has (mq mode with poll_queues; else 0). */
static ssize_t poll_queues_show(struct device *d,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", sbd_dev_of(d)->nr_poll_queues);
}
static DEVICE_ATTR_RO(poll_queues);

static ssize_t nr_pages_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%lu\n", sbd_store_nr_pages(&sbd_dev_of(d)->store));
}
static DEVICE_ATTR_RO(nr_pages);

static ssize_t mem_bytes_show(struct device *d, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)sbd_store_nr_pages(&sbd_dev_of(d)->store) << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(mem_bytes);

/*
 * Pages the disk's snapshot layers hold (shared with its crash images),
 * and how many pages and holes the last restore gave back.  The cache lock
 * keeps a snapshot from changing them meanwhile.
 */
static ssize_t snapshot_pages_show(struct device *d,
				   struct device_attribute *attr, char *buf)
{
	struct sbd_dev *dev = sbd_dev_of(d);
	struct sbd_layer *layer;
	unsigned long pages = 0;

	mutex_lock(&dev->cache.lock);
	for (layer = dev->store.base; layer; layer = layer->lower)
		pages += layer->nr_pages;
	mutex_unlock(&dev->cache.lock);
	return sysfs_emit(buf, "%lu\n", pages);
}
static DEVICE_ATTR_RO(snapshot_pages);

static ssize_t restore_pages_show(struct device *d,
				  struct device_attribute *attr, char *buf)
{
	struct sbd_dev *dev = sbd_dev_of(d);
	u64 pages;

	mutex_lock(&dev->cache.lock);
	pages = dev->restore_pages;
	mutex_unlock(&dev->cache.lock);
	return sysfs_emit(buf, "%llu\n", pages);
}
static DEVICE_ATTR_RO(restore_pages);

/* One read-only attribute per request counter. */
#define SBD_STAT_ATTR(_name, _stat)					\
static ssize_t _name##_show(struct device *d,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%llu\n",				\
			  sbd_stat_read(sbd_dev_of(d), _stat));		\
}									\
static DEVICE_ATTR_RO(_name)

SBD_STAT_ATTR(reads, SBD_STAT_READS);
SBD_STAT_ATTR(writes, SBD_STAT_WRITES);
SBD_STAT_ATTR(flushes, SBD_STAT_FLUSHES);
SBD_STAT_ATTR(discards, SBD_STAT_DISCARDS);
SBD_STAT_ATTR(write_zeroes, SBD_STAT_WRITE_ZEROES);
SBD_STAT_ATTR(fua_writes, SBD_STAT_FUA_WRITES);
SBD_STAT_ATTR(errors_injected, SBD_STAT_ERRORS_INJECTED);
SBD_STAT_ATTR(polled, SBD_STAT_POLLED);

/* What the write cache holds and what power cuts did, under its lock. */
static ssize_t sbd_cache_show(struct device *d, char *buf,
			      enum sbd_cache_count count)
{
	struct sbd_cache *cache = &sbd_dev_of(d)->cache;
	u64 val;

	mutex_lock(&cache->lock);
	val = cache->count[count];
	mutex_unlock(&cache->lock);
	return sysfs_emit(buf, "%llu\n", val);
}

#define SBD_CACHE_ATTR(_name, _count)					\
static ssize_t _name##_show(struct device *d,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sbd_cache_show(d, buf, _count);				\
}									\
static DEVICE_ATTR_RO(_name)

SBD_CACHE_ATTR(volatile_blocks, SBD_CACHE_VOLATILE_BLOCKS);
SBD_CACHE_ATTR(power_cuts, SBD_CACHE_POWER_CUTS);
SBD_CACHE_ATTR(lost_blocks, SBD_CACHE_LOST_BLOCKS);

static struct attribute *sbd_disk_attrs[] = {
	&dev_attr_name.attr,
	&dev_attr_queue_mode.attr,
	&dev_attr_uuid.attr,
	&dev_attr_poll_queues.attr,
	&dev_attr_nr_pages.attr,
	&dev_attr_mem_bytes.attr,
	&dev_attr_snapshot_pages.attr,
	&dev_attr_restore_pages.attr,
	&dev_attr_reads.attr,
	&dev_attr_writes.attr,
	&dev_attr_flushes.attr,
	&dev_attr_discards.attr,
	&dev_attr_write_zeroes.attr,
	&dev_attr_fua_writes.attr,
	&dev_attr_errors_injected.attr,
	&dev_attr_polled.attr,
	&dev_attr_volatile_blocks.attr,
	&dev_attr_power_cuts.attr,
	&dev_attr_lost_blocks.attr,
	NULL,
};

static const struct attribute_group sbd_disk_group = {
	.name	= SBD_NAME,
	.attrs	= sbd_disk_attrs,
};

const struct attribute_group *sbd_disk_groups[] = {
	&sbd_disk_group,
	NULL,
};
