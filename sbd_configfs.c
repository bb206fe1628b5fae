// SPDX-License-Identifier: GPL-2.0
/*
 * sbd runtime disks, through configfs:
 *
 *   mkdir /sys/kernel/config/sbd/NAME       a disk, not yet a block device
 *   echo 1G > .../NAME/size                 set its attributes
 *   echo 1 > .../NAME/power                 create /dev/sbdN
 *   echo 2G > .../NAME/size                 resize it online
 *   echo 0 > .../NAME/power                 remove /dev/sbdN, keep the data
 *   rmdir /sys/kernel/config/sbd/NAME       free it
 *
 * Every numeric attribute is declared once with SBD_CFG_ATTR: its range,
 * and what happens if it is written while the disk is powered on.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/configfs.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sbd.h"

/* What a new runtime disk starts with. */
#define SBD_DEFAULT_SIZE	SZ_1G

/* Delays up to 10 s; bandwidth up to 1 TB/s. */
#define SBD_MAX_DELAY_US	(10 * USEC_PER_SEC)
#define SBD_MAX_BANDWIDTH_MBPS	1000000

static struct sbd_dev *to_sbd_dev(struct config_item *item)
{
	return container_of(to_config_group(item), struct sbd_dev, group);
}

/* What else a numeric attribute's value must be. */
#define SBD_ATTR_POW2		BIT(0)	/* a power of two */
#define SBD_ATTR_MQ_ONLY	BIT(1)	/* only queue_mode=mq has it */

/*
 * How a numeric attribute may be set.  @apply, if any, makes the change
 * (powered on or not); without it the attribute is fixed while the block
 * device exists (-EBUSY).
 */
struct sbd_attr_rule {
	const char	*name;
	u64		min;
	u64		max;
	unsigned int	flags;		/* SBD_ATTR_* */
	int		(*check)(struct sbd_dev *dev, u64 val);
	int		(*apply)(struct sbd_dev *dev, u64 val);
	size_t		offset;		/* of the field in struct sbd_config */
};

static u64 *sbd_cfg_field(struct sbd_dev *dev, size_t offset)
{
	return (u64 *)((char *)&dev->config + offset);
}

/* For attributes that may change at any time and need nothing else done. */
static int sbd_attr_live(struct sbd_dev *dev, u64 val)
{
	return 0;
}

/* The block sizes and the size must stay consistent, whatever is set first. */
static int sbd_check_logical_block_size(struct sbd_dev *dev, u64 lbs)
{
	const struct sbd_config *c = &dev->config;

	/* A snapshot's log tears writes at the block size it was taken at. */
	if (dev->store.base && lbs != c->logical_block_size) {
		pr_warn("%s: logical_block_size cannot change while the disk has a snapshot\n",
			sbd_dev_name(dev));
		return -EBUSY;
	}
	if (lbs > c->physical_block_size) {
		pr_warn("%s: logical_block_size=%llu is invalid: must be at most physical_block_size=%llu\n",
			sbd_dev_name(dev), lbs, c->physical_block_size);
		return -EINVAL;
	}
	if (c->size % lbs) {
		pr_warn("%s: logical_block_size=%llu is invalid: size=%llu must be a multiple of it\n",
			sbd_dev_name(dev), lbs, c->size);
		return -EINVAL;
	}
	return 0;
}

static int sbd_check_physical_block_size(struct sbd_dev *dev, u64 pbs)
{
	if (pbs < dev->config.logical_block_size) {
		pr_warn("%s: physical_block_size=%llu is invalid: must be at least logical_block_size=%llu\n",
			sbd_dev_name(dev), pbs, dev->config.logical_block_size);
		return -EINVAL;
	}
	return 0;
}

/*
 * Parses and checks a value written to an attribute, with dev->lock held.
 * Returns 0 when the caller should record the value in dev->config.
 */
static int sbd_attr_set(struct sbd_dev *dev, const struct sbd_attr_rule *rule,
			const char *page, u64 *val)
{
	bool pow2 = rule->flags & SBD_ATTR_POW2;
	int ret;

	ret = kstrtou64(page, 0, val);
	if (ret || *val < rule->min || *val > rule->max ||
	    (pow2 && !is_power_of_2(*val))) {
		pr_warn("%s: %s=%.*s is invalid: must be %s%llu to %llu\n",
			sbd_dev_name(dev), rule->name,
			(int)strcspn(page, "\n"), page,
			pow2 ? "a power of two from " : "",
			rule->min, rule->max);
		return -EINVAL;
	}
	if ((rule->flags & SBD_ATTR_MQ_ONLY) &&
	    dev->config.queue_mode != SBD_QUEUE_MQ) {
		pr_warn("%s: %s=%llu is refused: the disk has queue_mode=bio, and %s applies to queue_mode=mq only\n",
			sbd_dev_name(dev), rule->name, *val, rule->name);
		return -EINVAL;
	}
	if (rule->check) {
		ret = rule->check(dev, *val);
		if (ret)
			return ret;
	}
	if (rule->apply)
		return rule->apply(dev, *val);
	if (dev->disk) {
		pr_warn("%s: %s cannot change while the disk is powered on\n",
			sbd_dev_name(dev), rule->name);
		return -EBUSY;
	}
	return 0;
}

/* Sets the attribute's field, with dev->lock held throughout. */
static ssize_t sbd_attr_store(struct sbd_dev *dev,
			      const struct sbd_attr_rule *rule,
			      const char *page, size_t count)
{
	u64 val;
	int ret;

	mutex_lock(&dev->lock);
	ret = sbd_attr_set(dev, rule, page, &val);
	if (!ret) {
		/* The I/O path reads some of these without the lock. */
		WRITE_ONCE(*sbd_cfg_field(dev, rule->offset), val);
		sbd_fault_update(dev);
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

/*
 * One numeric attribute of struct sbd_config: SBD_CFG_ATTR(field, min,
 * max, flags, check, apply).  Bounds that depend on the machine or on the
 * module parameters are expressions, evaluated when the attribute is
 * written.
 */
#define SBD_CFG_ATTR(_name, _min, _max, _flags, _check, _apply)		\
static const size_t sbd_cfg_##_name##_offset =				\
	offsetof(struct sbd_config, _name);				\
									\
static ssize_t sbd_cfg_##_name##_show(struct config_item *item,	\
				      char *page)			\
{									\
	return sprintf(page, "%llu\n", *sbd_cfg_field(to_sbd_dev(item),	\
			sbd_cfg_##_name##_offset));			\
}									\
									\
static ssize_t sbd_cfg_##_name##_store(struct config_item *item,	\
				       const char *page, size_t count)	\
{									\
	const struct sbd_attr_rule rule = {				\
		.name = #_name, .min = (_min), .max = (_max),		\
		.flags = (_flags), .check = (_check), .apply = (_apply),	\
		.offset = sbd_cfg_##_name##_offset,			\
	};								\
									\
	return sbd_attr_store(to_sbd_dev(item), &rule, page, count);	\
}									\
									\
static struct configfs_attribute sbd_cfg_attr_##_name = {		\
	.ca_name	= #_name,					\
	.ca_owner	= THIS_MODULE,					\
	.ca_mode	= 0644,						\
	.show		= sbd_cfg_##_name##_show,			\
	.store		= sbd_cfg_##_name##_store,			\
}

SBD_CFG_ATTR(size, SECTOR_SIZE, SBD_MAX_BYTES, 0, NULL, sbd_dev_resize);
SBD_CFG_ATTR(logical_block_size, SBD_MIN_BLOCK_SIZE,
	     min_t(unsigned long, SBD_MAX_BLOCK_SIZE, PAGE_SIZE), SBD_ATTR_POW2,
	     sbd_check_logical_block_size, NULL);
SBD_CFG_ATTR(physical_block_size, SBD_MIN_BLOCK_SIZE,
	     SBD_MAX_PHYS_BLOCK_SIZE, SBD_ATTR_POW2,
	     sbd_check_physical_block_size, NULL);
SBD_CFG_ATTR(hw_queues, 1, nr_cpu_ids, SBD_ATTR_MQ_ONLY, NULL, NULL);
SBD_CFG_ATTR(queue_depth, 1, SBD_MAX_QUEUE_DEPTH, SBD_ATTR_MQ_ONLY, NULL,
	     NULL);
SBD_CFG_ATTR(poll_queues, 0, nr_cpu_ids, SBD_ATTR_MQ_ONLY, NULL, NULL);
SBD_CFG_ATTR(partitions, 0, sbd_minors - 1, 0, NULL, NULL);
SBD_CFG_ATTR(discard, 0, 1, 0, NULL, NULL);
SBD_CFG_ATTR(read_only, 0, 1, 0, NULL, sbd_dev_set_read_only);

/* The test device. */
SBD_CFG_ATTR(cache, 0, 1, 0, NULL, NULL);
SBD_CFG_ATTR(ignore_flush, 0, 1, 0, NULL, sbd_attr_live);
SBD_CFG_ATTR(power_cut_keep, 0, 100, 0, NULL, sbd_attr_live);
SBD_CFG_ATTR(power_cut_versions, 0, 1, 0, NULL, sbd_attr_live);
SBD_CFG_ATTR(seed, 0, U64_MAX, 0, NULL, sbd_fault_seed);
SBD_CFG_ATTR(latency_us, 0, SBD_MAX_DELAY_US, 0, NULL, sbd_attr_live);
SBD_CFG_ATTR(latency_jitter_us, 0, SBD_MAX_DELAY_US, 0, NULL, sbd_attr_live);
SBD_CFG_ATTR(bandwidth_mbps, 0, SBD_MAX_BANDWIDTH_MBPS, 0, NULL,
	     sbd_attr_live);
SBD_CFG_ATTR(log_limit, 0, SBD_MAX_BYTES, 0, NULL, sbd_attr_live);
SBD_CFG_ATTR(log_full_fail, 0, 1, 0, NULL, sbd_attr_live);

/* bio or mq: how requests reach the disk; fixed while powered on. */
static ssize_t sbd_cfg_queue_mode_show(struct config_item *item, char *page)
{
	return sprintf(page, "%s\n",
		       sbd_queue_mode_names[to_sbd_dev(item)->config.queue_mode]);
}

static ssize_t sbd_cfg_queue_mode_store(struct config_item *item,
					const char *page, size_t count)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	int mode = sbd_parse_queue_mode(page);
	int ret = 0;

	if (mode < 0) {
		pr_warn("%s: queue_mode=%.*s is invalid: must be bio or mq\n",
			sbd_dev_name(dev), (int)strcspn(page, "\n"), page);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (dev->disk) {
		pr_warn("%s: queue_mode cannot change while the disk is powered on\n",
			sbd_dev_name(dev));
		ret = -EBUSY;
	} else {
		dev->config.queue_mode = mode;
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(sbd_cfg_, queue_mode);

/*
 * The disk's identity, random when it is made: what a re-export shows a
 * remote host, so set it (while powered off) to make a new disk pass for
 * an old one.
 */
static ssize_t sbd_cfg_uuid_show(struct config_item *item, char *page)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = sprintf(page, "%pUb\n", &dev->uuid);
	mutex_unlock(&dev->lock);
	return len;
}

static ssize_t sbd_cfg_uuid_store(struct config_item *item, const char *page,
				  size_t count)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	size_t len = strcspn(page, "\n");
	uuid_t uuid;
	int ret = 0;

	/* uuid_parse() reads exactly UUID_STRING_LEN characters. */
	if (len != UUID_STRING_LEN || uuid_parse(page, &uuid)) {
		pr_warn("%s: uuid=%.*s is invalid: must be 36 characters, xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx in hex\n",
			sbd_dev_name(dev), (int)len, page);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (dev->disk) {
		pr_warn("%s: uuid cannot change while the disk is powered on\n",
			sbd_dev_name(dev));
		ret = -EBUSY;
	} else {
		dev->uuid = uuid;
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(sbd_cfg_, uuid);

/* 1 cuts the power: unflushed writes are lost and every request fails. */
static ssize_t sbd_cfg_power_cut_show(struct config_item *item, char *page)
{
	return sprintf(page, "%d\n", READ_ONCE(to_sbd_dev(item)->fault.cut));
}

static ssize_t sbd_cfg_power_cut_store(struct config_item *item,
				       const char *page, size_t count)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	bool cut;

	if (kstrtobool(page, &cut)) {
		pr_warn("%s: power_cut=%.*s is invalid: must be 0 or 1\n",
			sbd_dev_name(dev), (int)strcspn(page, "\n"), page);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	sbd_fault_set_power_cut(dev, cut);
	mutex_unlock(&dev->lock);
	return count;
}
CONFIGFS_ATTR(sbd_cfg_, power_cut);

/* Error rules: one per write, "clear" removes them all. */
static ssize_t sbd_cfg_errors_show(struct config_item *item, char *page)
{
	return sbd_fault_show_rules(to_sbd_dev(item), page);
}

static ssize_t sbd_cfg_errors_store(struct config_item *item,
				    const char *page, size_t count)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	char *spec;
	int ret = 0;

	spec = kstrndup(page, count, GFP_KERNEL);
	if (!spec)
		return -ENOMEM;
	mutex_lock(&dev->lock);
	if (!strcmp(strim(spec), "clear"))
		sbd_fault_clear_rules(dev);
	else
		ret = sbd_fault_add_rule(dev, spec);
	mutex_unlock(&dev->lock);
	kfree(spec);
	return ret ? ret : count;
}
CONFIGFS_ATTR(sbd_cfg_, errors);

/* A disk that is a runtime disk's, by its configfs name, referenced. */
static struct sbd_dev *sbd_cfg_find(const char *name);

/*
 * Crash testing (sbd_snap.c, sbd_log.c).  Each of these actions is one
 * write: "1" to snapshot and restore, a label to mark.
 */
static int sbd_cfg_action(struct sbd_dev *dev, const char *attr,
			  const char *page, int (*action)(struct sbd_dev *dev))
{
	bool yes;
	int ret;

	if (kstrtobool(page, &yes) || !yes) {
		pr_warn("%s: %s=%.*s is invalid: must be 1\n", sbd_dev_name(dev),
			attr, (int)strcspn(page, "\n"), page);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	ret = action(dev);
	mutex_unlock(&dev->lock);
	return ret;
}

/* Reads 1 while the disk has a snapshot; 1 takes a (new) one. */
static ssize_t sbd_cfg_snapshot_show(struct config_item *item, char *page)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = sprintf(page, "%d\n", !!dev->store.base);
	mutex_unlock(&dev->lock);
	return len;
}

static ssize_t sbd_cfg_snapshot_store(struct config_item *item,
				      const char *page, size_t count)
{
	int ret = sbd_cfg_action(to_sbd_dev(item), "snapshot", page,
				 sbd_snap_take);

	return ret ? ret : count;
}
CONFIGFS_ATTR(sbd_cfg_, snapshot);

static ssize_t sbd_cfg_restore_store(struct config_item *item,
				     const char *page, size_t count)
{
	int ret = sbd_cfg_action(to_sbd_dev(item), "restore", page,
				 sbd_snap_restore);

	return ret ? ret : count;
}
CONFIGFS_ATTR_WO(sbd_cfg_, restore);

static ssize_t sbd_cfg_mark_store(struct config_item *item, const char *page,
				  size_t count)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	int ret;

	mutex_lock(&dev->lock);
	ret = sbd_log_mark(dev, page);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR_WO(sbd_cfg_, mark);

/* The write log as text; its size has no bound but this. */
#define SBD_LOG_TEXT_MAX	(64 << 20)

static ssize_t sbd_cfg_log_read(struct config_item *item, void *buf,
				size_t size)
{
	return sbd_log_show(to_sbd_dev(item), buf, size);
}
CONFIGFS_BIN_ATTR_RO(sbd_cfg_, log, NULL, SBD_LOG_TEXT_MAX);

/*
 * "SOURCE EPOCH STATE": makes this disk (powered off, empty) that crash
 * state of disk SOURCE's write log.  Reads back what it was made from,
 * and the state's writes of the epoch (n).
 */
static ssize_t sbd_cfg_crash_image_show(struct config_item *item, char *page)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	struct sbd_crash_origin *o;
	ssize_t len;

	mutex_lock(&dev->lock);
	o = dev->origin;
	len = o ? sprintf(page, "%s %llu %llu %lu\n", o->source, o->epoch,
			  o->state, o->writes) : sprintf(page, "\n");
	mutex_unlock(&dev->lock);
	return len;
}

static ssize_t sbd_cfg_crash_image_store(struct config_item *item,
					 const char *page, size_t count)
{
	struct sbd_dev *dev = to_sbd_dev(item), *src;
	char name[64];
	u64 epoch, state;
	int ret;

	if (sscanf(page, "%63s %llu %llu", name, &epoch, &state) != 3) {
		pr_warn("%s: crash_image=%.*s is invalid: must be SOURCE EPOCH STATE\n",
			sbd_dev_name(dev), (int)strcspn(page, "\n"), page);
		return -EINVAL;
	}
	src = sbd_cfg_find(name);
	if (!src || src == dev) {
		pr_warn("%s: crash_image source %s is invalid: must be another sbd runtime disk\n",
			sbd_dev_name(dev), name);
		ret = -EINVAL;
	} else {
		ret = sbd_crash_image(dev, src, epoch, state);
	}
	if (src)
		sbd_dev_put(src);
	return ret ? ret : count;
}
CONFIGFS_ATTR(sbd_cfg_, crash_image);

/* A crash image's last mark before its crash point; empty if none. */
static ssize_t sbd_cfg_crash_mark_show(struct config_item *item, char *page)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = sprintf(page, "%s\n", dev->origin ? dev->origin->mark : "");
	mutex_unlock(&dev->lock);
	return len;
}
CONFIGFS_ATTR_RO(sbd_cfg_, crash_mark);

/* 1 creates the block device, 0 removes it; the data stays either way. */
static ssize_t sbd_cfg_power_show(struct config_item *item, char *page)
{
	return sprintf(page, "%d\n", !!to_sbd_dev(item)->disk);
}

static ssize_t sbd_cfg_power_store(struct config_item *item, const char *page,
				   size_t count)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	bool on;
	int ret;

	ret = kstrtobool(page, &on);
	if (ret) {
		pr_warn("%s: power=%.*s is invalid: must be 0 or 1\n",
			sbd_dev_name(dev), (int)strcspn(page, "\n"), page);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (on)
		ret = sbd_dev_power_on(dev);
	else
		sbd_dev_power_off(dev);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(sbd_cfg_, power);

/* The block device's name, sbdN, or an empty line while powered off. */
static ssize_t sbd_cfg_device_show(struct config_item *item, char *page)
{
	struct sbd_dev *dev = to_sbd_dev(item);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = sprintf(page, "%s\n", dev->disk ? dev->disk->disk_name : "");
	mutex_unlock(&dev->lock);
	return len;
}
CONFIGFS_ATTR_RO(sbd_cfg_, device);

static ssize_t sbd_cfg_features_show(struct config_item *item, char *page);
CONFIGFS_ATTR_RO(sbd_cfg_, features);

static struct configfs_attribute *sbd_cfg_attrs[] = {
	&sbd_cfg_attr_size,
	&sbd_cfg_attr_queue_mode,
	&sbd_cfg_attr_uuid,
	&sbd_cfg_attr_logical_block_size,
	&sbd_cfg_attr_physical_block_size,
	&sbd_cfg_attr_hw_queues,
	&sbd_cfg_attr_queue_depth,
	&sbd_cfg_attr_poll_queues,
	&sbd_cfg_attr_partitions,
	&sbd_cfg_attr_discard,
	&sbd_cfg_attr_read_only,
	&sbd_cfg_attr_cache,
	&sbd_cfg_attr_ignore_flush,
	&sbd_cfg_attr_power_cut,
	&sbd_cfg_attr_power_cut_keep,
	&sbd_cfg_attr_power_cut_versions,
	&sbd_cfg_attr_seed,
	&sbd_cfg_attr_errors,
	&sbd_cfg_attr_latency_us,
	&sbd_cfg_attr_latency_jitter_us,
	&sbd_cfg_attr_bandwidth_mbps,
	&sbd_cfg_attr_log_limit,
	&sbd_cfg_attr_log_full_fail,
	&sbd_cfg_attr_snapshot,
	&sbd_cfg_attr_restore,
	&sbd_cfg_attr_mark,
	&sbd_cfg_attr_crash_image,
	&sbd_cfg_attr_crash_mark,
	&sbd_cfg_attr_power,
	&sbd_cfg_attr_device,
	&sbd_cfg_attr_features,
	NULL,
};

static struct configfs_bin_attribute *sbd_cfg_bin_attrs[] = {
	&sbd_cfg_attr_log,
	NULL,
};

/* Every attribute this build has, so that tools can tell what they may use. */
static ssize_t sbd_cfg_features_show(struct config_item *item, char *page)
{
	struct configfs_bin_attribute **bin;
	struct configfs_attribute **attr;
	ssize_t len = 0;

	for (attr = sbd_cfg_attrs; *attr; attr++)
		len += scnprintf(page + len, PAGE_SIZE - len, "%s%s",
				 len ? "," : "", (*attr)->ca_name);
	for (bin = sbd_cfg_bin_attrs; *bin; bin++)
		len += scnprintf(page + len, PAGE_SIZE - len, ",%s",
				 (*bin)->cb_attr.ca_name);
	len += scnprintf(page + len, PAGE_SIZE - len, "\n");
	return len;
}

/* The item's last reference is gone: drop the item's reference to the disk. */
static void sbd_cfg_release(struct config_item *item)
{
	sbd_dev_put(to_sbd_dev(item));
}

static struct configfs_item_operations sbd_cfg_item_ops = {
	.release	= sbd_cfg_release,
};

static const struct config_item_type sbd_cfg_dev_type = {
	.ct_item_ops	= &sbd_cfg_item_ops,
	.ct_attrs	= sbd_cfg_attrs,
	.ct_bin_attrs	= sbd_cfg_bin_attrs,
	.ct_owner	= THIS_MODULE,
};

VISIBLE_IF_KUNIT struct config_group *
sbd_cfg_make_group(struct config_group *parent, const char *name)
{
	struct sbd_config config = {
		.size			= SBD_DEFAULT_SIZE,
		.logical_block_size	= SECTOR_SIZE,
		.physical_block_size	= PAGE_SIZE,
		.hw_queues		= nr_cpu_ids,
		.queue_depth		= SBD_QUEUE_DEPTH,
		.partitions		= sbd_minors - 1,
		.discard		= 1,
		.queue_mode		= sbd_default_queue_mode,
	};
	struct sbd_dev *dev;

	dev = sbd_dev_alloc(&config);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	config_group_init_type_name(&dev->group, name, &sbd_cfg_dev_type);
	return &dev->group;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_cfg_make_group);

/* rmdir: the block device and the data go now, the rest with the last reference. */
static void sbd_cfg_drop_item(struct config_group *parent,
			      struct config_item *item)
{
	sbd_dev_remove(to_sbd_dev(item));
	config_item_put(item);
}

static struct configfs_group_operations sbd_cfg_group_ops = {
	.make_group	= sbd_cfg_make_group,
	.drop_item	= sbd_cfg_drop_item,
};

static const struct config_item_type sbd_cfg_subsys_type = {
	.ct_group_ops	= &sbd_cfg_group_ops,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem sbd_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= SBD_NAME,
			.ci_type	= &sbd_cfg_subsys_type,
		},
	},
};

static struct sbd_dev *sbd_cfg_find(const char *name)
{
	struct config_item *item;
	struct sbd_dev *dev = NULL;

	mutex_lock(&sbd_subsys.su_mutex);
	item = config_group_find_item(&sbd_subsys.su_group, name);
	if (item) {
		dev = to_sbd_dev(item);
		kref_get(&dev->ref);
		config_item_put(item);
	}
	mutex_unlock(&sbd_subsys.su_mutex);
	return dev;
}

int sbd_configfs_init(void)
{
	int ret;

	config_group_init(&sbd_subsys.su_group);
	mutex_init(&sbd_subsys.su_mutex);
	ret = configfs_register_subsystem(&sbd_subsys);
	if (ret)
		pr_err("cannot register the configfs subsystem: %d\n", ret);
	return ret;
}

void sbd_configfs_exit(void)
{
	configfs_unregister_subsystem(&sbd_subsys);
}
