/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbd: the simple block device, a sparse RAM disk.
 *
 * Shared declarations of the driver's parts: the module (sbd_main.c), the
 * disk lifecycle (sbd_disk.c), the two front ends, bio-based (sbd_bio.c)
 * and blk-mq (sbd_mq.c), the I/O core they share (sbd_io.c), the backing
 * store (sbd_store.c), the emulated write cache (sbd_cache.c), fault
 * injection (sbd_fault.c), runtime disks (sbd_configfs.c) and sysfs
 * (sbd_sysfs.c).
 */
#ifndef SBD_H
#define SBD_H

#include <kunit/visibility.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/configfs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/prandom.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uuid.h>
#include <linux/xarray.h>

#define SBD_NAME		"sbd"

/* Limits the module parameters are checked against. */
#define SBD_MAX_DEVICES		256
#define SBD_MAX_PART		255	/* DISK_MAX_PARTS minors, less the disk */
#define SBD_MIN_BLOCK_SIZE	SECTOR_SIZE
#define SBD_MAX_BLOCK_SIZE	4096
#define SBD_MAX_PHYS_BLOCK_SIZE	65536
#define SBD_MAX_QUEUE_DEPTH	1024

/*
 * The largest disk: its size in bytes fits a loff_t and its page numbers
 * fit the store's pgoff_t index (the tighter limit on 32-bit kernels).
 */
#define SBD_MAX_BYTES		((u64)MAX_LFS_FILESIZE)

/* mq mode: tags per hardware queue (a RAM disk needs few). */
#define SBD_QUEUE_DEPTH		128
/* Delayed completions a bio disk lets wait, the tags a default mq disk has */
#define SBD_MAX_DELAYED		SBD_QUEUE_DEPTH
/* Largest request, in 512-byte sectors: 1 MiB. */
#define SBD_MAX_HW_SECTORS	2048

/*
 * Backing store: the disk's pages, allocated on first write and kept in an
 * xarray indexed by page number.  Readers look pages up under RCU only;
 * writers insert with the xarray's own lock; discarded pages are freed
 * by an RCU callback so that a concurrent reader never copies from a freed
 * page, and no discard waits for a grace period.
 */
struct sbd_store {
	struct xarray		pages;
	atomic_long_t		nr_pages;
	struct sbd_layer	*base;		/* a snapshot below; NULL: none */
};

/*
 * A snapshot's contents (sbd_snap.c): the pages a store held when the
 * snapshot was taken, frozen, and whatever lay below them then.  Layers
 * never change once made, so lookups need no lock; a layer lives as long
 * as a store or a write log refers to it, and a crash image shares it with
 * the disk it was made from.  In a store above a layer, SBD_HOLE marks a
 * page discarded since: it reads zeros whatever lies below.
 */
struct sbd_layer {
	refcount_t		ref;
	struct xarray		pages;		/* page, or SBD_HOLE */
	unsigned long		nr_pages;
	struct sbd_layer	*lower;
};

#define SBD_HOLE		xa_mk_value(0)

/*
 * A cursor visits the pages of one request in order: from one page to the
 * next it moves along the xarray instead of descending from its root
 * again.  It is used under rcu_read_lock(), which a write drops while it
 * allocates a page: callers keep no RCU-protected pointer across it.
 */
struct sbd_store_cursor {
	struct xa_state		xas;		/* on store->pages */
};

/*
 * A new cursor, as a declaration's initializer: a struct filled in after
 * its declaration is zeroed first under INIT_STACK_ALL_ZERO.
 */
#define SBD_STORE_CURSOR(store)	{ .xas = __XA_STATE(&(store)->pages, 0, 0, 0) }

static inline void sbd_store_cursor_init(struct sbd_store_cursor *cur,
					 struct sbd_store *store)
{
	*cur = (struct sbd_store_cursor)SBD_STORE_CURSOR(store);
}

void sbd_store_init(struct sbd_store *store);
void sbd_store_destroy(struct sbd_store *store);
int sbd_store_write_at(struct sbd_store_cursor *cur, u64 pos,
		       const void *buf, unsigned int len, gfp_t gfp)
	__must_hold(RCU);
void sbd_store_read_at(struct sbd_store_cursor *cur, u64 pos, void *buf,
		       unsigned int len)
	__must_hold(RCU);
int sbd_store_write(struct sbd_store *store, u64 pos, const void *buf,
		    unsigned int len, gfp_t gfp);
void sbd_store_read(struct sbd_store *store, u64 pos, void *buf,
		    unsigned int len);
int sbd_store_zero(struct sbd_store *store, u64 pos, u64 len, gfp_t gfp);
void sbd_store_truncate(struct sbd_store *store, u64 size);
unsigned long sbd_store_revert(struct sbd_store *store);
bool sbd_store_next_page(struct sbd_store *store, pgoff_t *idx, pgoff_t last);
struct page *sbd_layer_lookup(struct sbd_layer *layer, pgoff_t idx);

static inline unsigned long sbd_store_nr_pages(struct sbd_store *store)
{
	return atomic_long_read(&store->nr_pages);
}

/* Requests counted per disk, shown in /sys/block/sbdN/sbd/. */
enum sbd_stat {
	SBD_STAT_READS,
	SBD_STAT_WRITES,
	SBD_STAT_FLUSHES,
	SBD_STAT_DISCARDS,
	SBD_STAT_WRITE_ZEROES,
	SBD_STAT_FUA_WRITES,
	SBD_STAT_ERRORS_INJECTED,
	SBD_STAT_POLLED,		/* requests ended by ->poll */
	SBD_STAT_NR
};

struct sbd_stats {
	u64			count[SBD_STAT_NR];
};

/* How requests reach a disk: config.queue_mode. */
enum sbd_queue_mode {
	SBD_QUEUE_BIO,		/* ->submit_bio, like brd */
	SBD_QUEUE_MQ,		/* blk-mq ->queue_rq, like null_blk */
	SBD_QUEUE_NR
};

extern const char * const sbd_queue_mode_names[SBD_QUEUE_NR];

/*
 * What a disk is made of.  Runtime disks set these through configfs, one
 * attribute each, so they are all plain 64-bit numbers; only size and
 * read_only, and the test device's knobs but cache, may change while
 * powered on.
 */
struct sbd_config {
	u64			size;		/* bytes */
	u64			queue_mode;	/* enum sbd_queue_mode */
	u64			logical_block_size;
	u64			physical_block_size;
	u64			hw_queues;	/* mq mode only */
	u64			queue_depth;	/* mq mode only */
	u64			poll_queues;	/* mq mode only */
	u64			partitions;	/* at most max_part */
	u64			discard;	/* 0 or 1 */
	u64			read_only;	/* 0 or 1 */
	/* The test device: all off by default. */
	u64			cache;		/* volatile write cache */
	u64			ignore_flush;	/* ...that lies about flushes */
	u64			power_cut_keep;	/* % of volatile blocks kept */
	u64			power_cut_versions; /* ...or older versions of them */
	u64			seed;
	u64			latency_us;
	u64			latency_jitter_us;
	u64			bandwidth_mbps;	/* 10^6 bytes/s, 0: no limit */
	u64			log_limit;	/* bytes of logged data, 0: no log */
	u64			log_full_fail;	/* a full log fails writes */
};

/*
 * The emulated volatile write cache.  Writes go to the store at once, so
 * reads see them; what the disk must be able to go back to is kept aside:
 * for each page with blocks written since the last flush, the durable
 * contents of those blocks.  A flush forgets them, a power cut restores
 * them (see sbd_cache.c).
 */
enum sbd_cache_count {
	SBD_CACHE_VOLATILE_BLOCKS,	/* dirty now */
	SBD_CACHE_POWER_CUTS,
	SBD_CACHE_LOST_BLOCKS,		/* at the last power cut */
	SBD_CACHE_NR
};

struct sbd_cache {
	struct mutex		lock;		/* the whole of a cached write */
	struct xarray		entries;	/* page index -> sbd_cache_entry */
	u64			count[SBD_CACHE_NR];
};

/* Error rules, delays and the power switch (see sbd_fault.c). */
#define SBD_MAX_RULES		16

struct sbd_rule {
	u32			ops;		/* BIT(REQ_OP_*) */
	sector_t		first, last;	/* inclusive */
	bool			ranged;
	u8			trigger;	/* enum sbd_trigger */
	u64			arg;		/* N of next/every, P of prob */
	u64			seen;		/* matching requests */
	u64			hits;		/* requests failed */
	blk_status_t		status;
};

/*
 * A completion that waits on a timer: a request (mq mode) or a bio (bio
 * mode).  @end completes it with @status, from the timer or earlier, at a
 * power cut or power off.
 */
struct sbd_delayed {
	struct hrtimer		timer;
	struct list_head	node;		/* on fault.pending while armed */
	bool			armed;		/* under fault.lock */
	blk_status_t		status;
	struct sbd_dev		*dev;
	void			(*end)(struct sbd_delayed *d);
};

struct sbd_fault {
	spinlock_t		lock;		/* everything below but inflight */
	struct sbd_rule		rules[SBD_MAX_RULES];
	unsigned int		nr_rules;
	struct rnd_state	rnd;		/* seeded from config.seed */
	u64			latency_ns;
	u64			jitter_ns;
	u64			bytes_per_sec;
	u64			busy_until;	/* bandwidth: ns, CLOCK_MONOTONIC */
	bool			cut;		/* power cut: fail everything */
	bool			delays;		/* latency, jitter or bandwidth */
	bool			active;		/* any of the above set */
	bool			stopped;	/* powering off: complete at once */
	struct list_head	pending;	/* armed sbd_delayed */
	atomic_t		inflight;	/* armed or being ended */
};

/*
 * The write log (sbd_log.c): from a snapshot on, everything that changed
 * the disk or made it durable, in the order it was done, with the data
 * written, and the marks a workload put between.  Entries never change
 * once logged (log->nr is published after them), so crash images read a
 * log while the disk goes on writing to it.  Flushes split it into epochs,
 * numbered from 1; epoch 0 is the snapshot itself.
 */
enum sbd_log_kind {
	SBD_LOG_WRITE,
	SBD_LOG_ZERO,		/* discard or write-zeroes */
	SBD_LOG_FLUSH,		/* ends an epoch */
	SBD_LOG_MARK,
};

#define SBD_MARK_MAX		64	/* bytes of a label, with its NUL */

struct sbd_log_entry {
	u8			kind;		/* enum sbd_log_kind */
	bool			fua;
	u32			len;		/* bytes */
	u64			pos;		/* bytes */
	u64			data;		/* a write's data in log->data */
	char			*label;		/* a mark's */
};

struct sbd_log {
	struct kref		ref;
	struct sbd_layer	*base;		/* the snapshot it starts from */
	u64			size;		/* the disk's, at the snapshot */
	u32			block_size;	/* logical, at the snapshot */
	u32			physical_block_size;
	struct xarray		entries;	/* number -> struct sbd_log_entry */
	unsigned long		nr;		/* entries logged */
	unsigned long		nr_epochs;	/* the newest, open one's number */
	struct xarray		epochs;		/* epoch -> value: its first entry */
	struct sbd_store	data;		/* the data written, back to back */
	u64			data_end;	/* ...so far */
	u64			bytes;		/* data and entries, for log_limit */
	u64			dropped;	/* not logged: full */
	bool			full;
	bool			stopped;	/* by a power cut */
	void			*bounce;	/* a page, for copying data in */
};

/*
 * Where a crash image came from (its crash_image attribute): a state of
 * another disk's log, and the last mark logged before its crash point.
 */
struct sbd_crash_origin {
	char			*source;	/* the disk's configfs name */
	u64			epoch, state;
	unsigned long		writes;		/* of epoch + 1: states 1..n */
	char			mark[SBD_MARK_MAX];
};

/*
 * One piece of work for the disk, however it arrived: both front ends
 * describe a bio or a request this way, and the core (sbd_io.h) checks and
 * executes it.  A bio's REQ_PREFLUSH asks for a flush before its data; a
 * bare one, an empty write, is a flush (op REQ_OP_FLUSH).
 */
struct sbd_io {
	enum req_op		op;
	blk_opf_t		flags;		/* the op's flags: REQ_FUA, REQ_NOWAIT... */
	u64			pos;		/* bytes */
	u32			len;		/* bytes; 0 for a flush */
	bool			chained;	/* a request's: more bios may follow */
	struct bio		*bio;		/* the data: bios linked by bi_next */
};

/*
 * A poll queue's requests that are done and wait for their submitter to
 * poll (sbd_poll.c).  Stopped while the disk powers off or drains.
 */
struct sbd_poll_queue {
	spinlock_t		lock;		/* IRQ-safe: delay timers take it */
	struct list_head	done;		/* requests, by rq->queuelist */
	bool			stopped;	/* end at once, list nothing */
};

/*
 * One disk.  The struct outlives its gendisk: a runtime disk keeps its data
 * while powered off, so the gendisk holds a reference and so does whoever
 * made the disk (the configfs item, or the module for parameter disks).
 */
struct sbd_dev {
	struct kref		ref;
	struct mutex		lock;		/* power, resize, config */
	struct sbd_config	config;
	uuid_t			uuid;		/* identity, under lock */
	int			index;		/* sbdN; valid while powered */
	struct gendisk		*disk;		/* NULL while powered off */
	struct blk_mq_tag_set	tag_set;	/* mq mode, while powered */
	struct sbd_poll_queue	*poll_queues;	/* ...and its poll queues */
	unsigned int		nr_poll_queues;
	struct sbd_store	store;
	struct sbd_cache	cache;
	struct sbd_fault	fault;
	/*
	 * Writable, and no error rule, delay, power cut, write cache or
	 * write log: a request needs nothing but the switch (sbd_io.h; the
	 * block layer has checked the end of the disk).  Worked out under
	 * lock by sbd_dev_update_plain() whenever one of them changes, and
	 * read once per request.
	 */
	bool			plain;
	struct sbd_stats __percpu *stats;
	struct sbd_log		*log;		/* under lock and cache.lock */
	struct sbd_crash_origin	*origin;	/* a crash image's, under lock */
	u64			restore_pages;	/* the last restore's work */
	struct list_head	list;		/* parameter disks only */
	struct config_group	group;		/* runtime disks only */
};

/* Counted per CPU, so the I/O path shares no cache line between CPUs. */
static inline void sbd_count_add(struct sbd_dev *dev, enum sbd_stat stat,
				 u64 n)
{
	this_cpu_add(dev->stats->count[stat], n);
}

static inline void sbd_count(struct sbd_dev *dev, enum sbd_stat stat)
{
	sbd_count_add(dev, stat, 1);
}

u64 sbd_stat_read(struct sbd_dev *dev, enum sbd_stat stat);

/* sbd_main.c: the module's global state. */
extern int sbd_major;
extern unsigned int sbd_minors;
extern enum sbd_queue_mode sbd_default_queue_mode;

/* sbd_disk.c */
struct sbd_dev *sbd_dev_alloc(const struct sbd_config *config);
void sbd_dev_update_plain(struct sbd_dev *dev);
void sbd_dev_put(struct sbd_dev *dev);
int sbd_dev_power_on(struct sbd_dev *dev);
void sbd_dev_power_off(struct sbd_dev *dev);
void sbd_dev_remove(struct sbd_dev *dev);
void sbd_dev_quiesce(struct sbd_dev *dev);
void sbd_dev_resume(struct sbd_dev *dev);
int sbd_dev_resize(struct sbd_dev *dev, u64 size);
int sbd_dev_set_read_only(struct sbd_dev *dev, u64 read_only);
void sbd_fill_geometry(u64 nr_sectors, struct hd_geometry *geo);
const char *sbd_dev_name(struct sbd_dev *dev);
int sbd_parse_queue_mode(const char *s);

/* sbd_cache.c: all with dev->cache.lock held, except init and destroy. */
void sbd_cache_init(struct sbd_cache *cache);
void sbd_cache_destroy(struct sbd_cache *cache);
int sbd_cache_dirty(struct sbd_dev *dev, u64 pos, u64 len, gfp_t gfp);
int sbd_cache_dirty_present(struct sbd_dev *dev, u64 pos, u64 len, gfp_t gfp);
void sbd_cache_clean(struct sbd_dev *dev, u64 pos, u64 len);
void sbd_cache_flush(struct sbd_dev *dev);
void sbd_cache_power_cut(struct sbd_dev *dev);
void sbd_cache_truncate(struct sbd_dev *dev, u64 size);

/* sbd_snap.c: snapshots; with dev->lock held, but for sbd_layer_put. */
struct sbd_layer *sbd_layer_get(struct sbd_layer *layer);
void sbd_layer_put(struct sbd_layer *layer);
int sbd_snap_take(struct sbd_dev *dev);
int sbd_snap_restore(struct sbd_dev *dev);

/* sbd_log.c: the write log and crash images. */
void sbd_log_put(struct sbd_log *log);
struct sbd_log *sbd_log_new(struct sbd_dev *dev);
int sbd_log_check(struct sbd_dev *dev, const struct sbd_io *io);
void sbd_log_io(struct sbd_dev *dev, const struct sbd_io *io, bool durable,
		int ret);
void sbd_log_cut(struct sbd_dev *dev);
int sbd_log_mark(struct sbd_dev *dev, const char *label);
ssize_t sbd_log_show(struct sbd_dev *dev, char *buf, size_t size);
int sbd_crash_image(struct sbd_dev *img, struct sbd_dev *src, u64 epoch,
		    u64 state);
void sbd_crash_origin_free(struct sbd_crash_origin *origin);

/* How a crash state treats one write of its epoch (sbd_log.c). */
enum sbd_keep {
	SBD_KEEP_NONE,
	SBD_KEEP_ALL,
	SBD_KEEP_TORN,		/* some of its blocks */
};

struct sbd_crash_pick {
	unsigned long		n;		/* writes in the epoch */
	u64			state;
	struct rnd_state	rnd;
};

/* sbd_fault.c */
void sbd_fault_init(struct sbd_dev *dev);
void sbd_fault_update(struct sbd_dev *dev);
int sbd_fault_seed(struct sbd_dev *dev, u64 seed);
blk_status_t sbd_fault_check(struct sbd_dev *dev, const struct sbd_io *io);
void sbd_delayed_init(struct sbd_delayed *d, struct sbd_dev *dev,
		      void (*end)(struct sbd_delayed *d));
bool sbd_fault_room(struct sbd_dev *dev, bool nowait);
bool sbd_fault_delay(struct sbd_dev *dev, const struct sbd_io *io,
		     struct sbd_delayed *d, blk_status_t *sts);
void sbd_fault_start(struct sbd_dev *dev);
void sbd_fault_stop(struct sbd_dev *dev);
int sbd_fault_set_power_cut(struct sbd_dev *dev, bool cut);
int sbd_fault_add_rule(struct sbd_dev *dev, char *spec);
void sbd_fault_clear_rules(struct sbd_dev *dev);
ssize_t sbd_fault_show_rules(struct sbd_dev *dev, char *page);

/* sbd_configfs.c */
int sbd_configfs_init(void);
void sbd_configfs_exit(void);

/* sbd_sysfs.c */
extern const struct attribute_group *sbd_disk_groups[];

/* sbd_bio.c: the bio front end. */
int sbd_bio_init(void);
void sbd_bio_exit(void);
void sbd_submit_bio(struct bio *bio);

/* sbd_mq.c: the blk-mq front end. */
int sbd_mq_alloc_tag_set(struct sbd_dev *dev);
void sbd_mq_free_tag_set(struct sbd_dev *dev);

/* sbd_poll.c: polled completion on mq mode's poll queues. */
int sbd_poll_alloc(struct sbd_dev *dev);
void sbd_poll_free(struct sbd_dev *dev);
struct sbd_poll_queue *sbd_poll_queue_of(struct sbd_dev *dev,
					 unsigned int hctx_idx);
void sbd_poll_complete(struct request *rq, blk_status_t sts);
int sbd_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob);
void sbd_poll_stop(struct sbd_dev *dev);
void sbd_poll_start(struct sbd_dev *dev);

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * Private to their files, but with KUnit exported to the unit tests
 * (tests/kunit/sbd_kunit.c) in the EXPORTED_FOR_KUNIT_TESTING namespace.
 */
int sbd_check_params(u64 blocks, int block_size, int disks, int parts,
		     int major, const char *queue_mode);
int sbd_check_poll_queues(int poll_queues, const char *queue_mode);
struct config_group *sbd_cfg_make_group(struct config_group *parent,
					const char *name);
void sbd_crash_pick_init(struct sbd_crash_pick *p, u64 seed, u64 epoch,
			 u64 state, unsigned long n);
enum sbd_keep sbd_crash_pick_write(struct sbd_crash_pick *p, unsigned long i,
				   bool fua);
bool sbd_crash_pick_block(struct sbd_crash_pick *p);
struct sbd_layer *sbd_layer_alloc(void);
int sbd_snap_freeze_store(struct sbd_store *store, struct sbd_layer *layer);
#endif

#endif /* SBD_H */
