// SPDX-License-Identifier: GPL-2.0
/*
 * sbd write log, marks and crash states.
 *
 * From a snapshot on (with log_limit set), the I/O core logs every write,
 * discard / write-zeroes and flush the disk carries out, in the order it
 * does them (all under the cache lock), with the data as written, and the
 * marks a workload puts between them.  A flush the disk honours ends an
 * epoch: epochs are numbered from 1, and epoch 0 is the snapshot.
 *
 * A crash state (E, K) is what the disk could hold after a power loss in
 * epoch E + 1: everything of epochs up to E (made durable by the flush
 * that ended E), and of the n writes of epoch E + 1
 *
 *   K = 0          none
 *   K = 1..n       the first K, in order (a crash right after the K-th)
 *   K > n          a choice made from (seed, E, K): each write kept whole,
 *                  lost, or torn at physical-block granularity; kept in
 *                  order, so a block written several times may end up
 *                  with any of its versions.  FUA writes are always kept.
 *
 * A crash image materializes a state as a new disk: a store over the
 * snapshot's layers (nothing copied), with the logged writes applied.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sbd.h"

/* Seeded states per epoch, after the n + 1 prefixes. */
#define SBD_CRASH_SEEDED	1000000

struct sbd_log *sbd_log_new(struct sbd_dev *dev)
{
	struct sbd_log *log = kzalloc(sizeof(*log), GFP_KERNEL);

	if (!log)
		return NULL;
	log->bounce = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!log->bounce) {
		kfree(log);
		return NULL;
	}
	kref_init(&log->ref);
	xa_init(&log->entries);
	xa_init(&log->epochs);
	sbd_store_init(&log->data);
	log->size = dev->config.size;
	log->block_size = dev->config.logical_block_size;
	log->physical_block_size = dev->config.physical_block_size;
	/* Epoch 1 starts at entry 0. */
	log->nr_epochs = 1;
	if (xa_err(xa_store(&log->epochs, 1, xa_mk_value(0), GFP_KERNEL))) {
		kfree(log->bounce);
		kfree(log);
		return NULL;
	}
	return log;
}

static void sbd_log_release(struct kref *ref)
{
	struct sbd_log *log = container_of(ref, struct sbd_log, ref);
	struct sbd_log_entry *e;
	unsigned long idx;

	xa_for_each(&log->entries, idx, e) {
		kfree(e->label);
		kfree(e);
		cond_resched();
	}
	xa_destroy(&log->entries);
	xa_destroy(&log->epochs);
	sbd_store_destroy(&log->data);
	sbd_layer_put(log->base);
	kfree(log->bounce);
	kfree(log);
}

void sbd_log_put(struct sbd_log *log)
{
	if (log)
		kref_put(&log->ref, sbd_log_release);
}

/*
 * Before a change is carried out, with the cache lock held: may it be?
 * A write, discard or write-zeroes that the log has no room for fails
 * with log_full_fail set (the log stays complete: flushes, which carry no
 * data, are still logged), and is otherwise done without being logged
 * (the log says it is full and counts what it dropped).  A logging disk
 * takes no REQ_NOWAIT change: the log allocates as it goes.
 */
int sbd_log_check(struct sbd_dev *dev, const struct sbd_io *io)
{
	struct sbd_log *log = dev->log;
	u64 need = sizeof(struct sbd_log_entry);

	if (io->flags & REQ_NOWAIT)
		return -EAGAIN;
	if (log->stopped || io->op == REQ_OP_FLUSH)
		return 0;
	if (io->op == REQ_OP_WRITE)
		need += io->len;
	if (log->bytes + need > READ_ONCE(dev->config.log_limit))
		log->full = true;
	return log->full && READ_ONCE(dev->config.log_full_fail) ?
	       -ENOSPC : 0;
}

/* Publishes @e as the log's next entry; a flush opens the next epoch. */
static int sbd_log_append(struct sbd_log *log, struct sbd_log_entry *e)
{
	unsigned long nr = log->nr;

	if (xa_err(xa_store(&log->entries, nr, e, GFP_NOIO)))
		return -ENOMEM;
	if (e->kind == SBD_LOG_FLUSH) {
		if (xa_err(xa_store(&log->epochs, log->nr_epochs + 1,
				    xa_mk_value(nr + 1), GFP_NOIO))) {
			xa_erase(&log->entries, nr);
			return -ENOMEM;
		}
		log->nr_epochs++;
	}
	log->bytes += sizeof(*e);
	/* Crash images read entries below nr without the lock. */
	smp_store_release(&log->nr, nr + 1);
	return 0;
}

/*
 * A write's data, as the store now holds it (not from the bios: their
 * pages may change under a write, and the log must say what the disk
 * got), to the end of the log's data.  The cache lock serializes users of
 * the bounce page.
 */
static int sbd_log_copy(struct sbd_dev *dev, struct sbd_log *log,
			const struct sbd_io *io)
{
	u64 pos = io->pos, off = log->data_end, end = io->pos + io->len;
	int ret;

	while (pos < end) {
		unsigned int chunk = min_t(u64, end - pos, PAGE_SIZE);

		sbd_store_read(&dev->store, pos, log->bounce, chunk);
		ret = sbd_store_write(&log->data, off, log->bounce, chunk,
				      GFP_NOIO);
		if (ret)
			return ret;
		pos += chunk;
		off += chunk;
	}
	return 0;
}

/*
 * A change has been carried out (@ret 0), or tried and failed part way,
 * with the cache lock held: log it.  Only what the disk made durable
 * counts as a flush or a FUA (@durable false: ignore_flush, a disk that
 * lies).  Once full, the log records nothing more but the flushes that
 * log_full_fail lets through, so that it is always a true prefix of what
 * happened; a change that failed part way may have changed the disk, so
 * the log ends there too.
 */
void sbd_log_io(struct sbd_dev *dev, const struct sbd_io *io, bool durable,
		int ret)
{
	bool flush = io->op == REQ_OP_FLUSH;
	struct sbd_log *log = dev->log;
	struct sbd_log_entry *e;

	if (log->stopped || (flush && !durable))
		return;
	if (ret) {
		if (!flush)
			goto full;
		return;		/* a failed flush made nothing durable */
	}
	if (log->full && !(flush && READ_ONCE(dev->config.log_full_fail)))
		goto drop;
	e = kzalloc(sizeof(*e), GFP_NOIO);
	if (!e)
		goto full;
	e->pos = io->pos;
	e->len = io->len;
	switch (io->op) {
	case REQ_OP_WRITE:
		e->kind = SBD_LOG_WRITE;
		e->fua = (io->flags & REQ_FUA) && durable;
		e->data = log->data_end;
		if (sbd_log_copy(dev, log, io))
			goto free;
		break;
	case REQ_OP_FLUSH:
		e->kind = SBD_LOG_FLUSH;
		break;
	default:
		e->kind = SBD_LOG_ZERO;
		break;
	}
	if (sbd_log_append(log, e))
		goto free;
	if (e->kind == SBD_LOG_WRITE) {
		log->data_end += e->len;
		log->bytes += e->len;
	}
	return;
free:
	kfree(e);
full:
	log->full = true;
drop:
	log->dropped++;
}

/* A power cut: what the disk does next no longer follows from the log. */
void sbd_log_cut(struct sbd_dev *dev)
{
	lockdep_assert_held(&dev->cache.lock);
	if (dev->log)
		dev->log->stopped = true;
}

/* A label is one line of printable characters. */
static bool sbd_mark_valid(const char *label, size_t len)
{
	size_t i;

	if (!len || len >= SBD_MARK_MAX)
		return false;
	for (i = 0; i < len; i++) {
		if (!isprint(label[i]))
			return false;
	}
	return true;
}

/* Puts a labelled mark into the log, in order with the I/O around it. */
int sbd_log_mark(struct sbd_dev *dev, const char *label)
{
	size_t len = strcspn(label, "\n");
	struct sbd_log_entry *e;
	int ret = 0;

	lockdep_assert_held(&dev->lock);
	if (!sbd_mark_valid(label, len)) {
		pr_warn("%s: mark=%.*s is invalid: must be 1 to %d printable characters\n",
			sbd_dev_name(dev), (int)min_t(size_t, len, 80), label,
			SBD_MARK_MAX - 1);
		return -EINVAL;
	}
	if (!dev->log) {
		pr_warn("%s: mark is refused: the disk has no write log (set log_limit, then take a snapshot)\n",
			sbd_dev_name(dev));
		return -EINVAL;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->kind = SBD_LOG_MARK;
	e->label = kstrndup(label, len, GFP_KERNEL);
	if (!e->label) {
		kfree(e);
		return -ENOMEM;
	}
	mutex_lock(&dev->cache.lock);
	if (dev->log->stopped || dev->log->full) {
		dev->log->dropped++;
		ret = -ENOSPC;
	} else {
		ret = sbd_log_append(dev->log, e);
	}
	mutex_unlock(&dev->cache.lock);
	if (ret) {
		kfree(e->label);
		kfree(e);
	}
	return ret;
}

/* Takes a reference to @dev's log and how many entries it has now. */
static struct sbd_log *sbd_log_get(struct sbd_dev *dev, unsigned long *nr,
				   unsigned long *nr_epochs)
{
	struct sbd_log *log;

	mutex_lock(&dev->lock);
	mutex_lock(&dev->cache.lock);
	log = dev->log;
	if (log) {
		kref_get(&log->ref);
		*nr = log->nr;
		*nr_epochs = log->nr_epochs;
	}
	mutex_unlock(&dev->cache.lock);
	mutex_unlock(&dev->lock);
	return log;
}

static struct sbd_log_entry *sbd_log_entry(struct sbd_log *log,
					   unsigned long i)
{
	return xa_load(&log->entries, i);
}

/* Epoch @epoch (from 1): its entries are [*first, *end). */
static void sbd_log_epoch(struct sbd_log *log, unsigned long nr,
			  unsigned long nr_epochs, unsigned long epoch,
			  unsigned long *first, unsigned long *end)
{
	*first = xa_to_value(xa_load(&log->epochs, epoch));
	if (epoch < nr_epochs)	/* closed: its flush is its last entry */
		*end = xa_to_value(xa_load(&log->epochs, epoch + 1)) - 1;
	else
		*end = nr;
}

static bool sbd_log_is_change(const struct sbd_log_entry *e)
{
	return e->kind == SBD_LOG_WRITE || e->kind == SBD_LOG_ZERO;
}

/* Longest line: the header's numbers, or a mark's and its label. */
#define SBD_LOG_LINE_MAX	256

/* A line at @len of @buf (NULL: only counted), if all of it fits. */
static __printf(4, 5) size_t sbd_log_line(char *buf, size_t size,
					  size_t len, const char *fmt, ...)
{
	char line[SBD_LOG_LINE_MAX];
	va_list args;
	size_t n;

	va_start(args, fmt);
	n = vscnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	if (!buf)
		return len + n;
	if (len + n > size)
		return len;
	memcpy(buf + len, line, n);
	return len + n;
}

/*
 * The log, as text (the disk's log attribute; sbdctl log):
 *
 *   log entries N epochs E bytes B limit L full 0|1 dropped D stopped 0|1
 *   epoch E first F count C writes N fua F flushed 0|1
 *                                        (C: entries, its flush included)
 *   mark ENTRY epoch E after W LABEL      (W: writes of E before it)
 *
 * With @buf NULL, returns the length of the text; configfs then calls
 * again with a buffer of that length and shows all of it.  If the log
 * grew in between, what no longer fits is left out, whole lines, and the
 * end filled with newlines.
 */
ssize_t sbd_log_show(struct sbd_dev *dev, char *buf, size_t size)
{
	unsigned long nr = 0, nr_epochs = 0, epoch, i;
	struct sbd_log *log;
	size_t len = 0;

	log = sbd_log_get(dev, &nr, &nr_epochs);
	if (!log) {
		len = sbd_log_line(buf, size, 0, "log none\n");
		goto out;
	}
	len = sbd_log_line(buf, size, len,
			   "log entries %lu epochs %lu bytes %llu limit %llu full %d dropped %llu stopped %d\n",
			   nr, nr_epochs, log->bytes,
			   READ_ONCE(dev->config.log_limit), READ_ONCE(log->full),
			   READ_ONCE(log->dropped), READ_ONCE(log->stopped));
	for (epoch = 1; epoch <= nr_epochs; epoch++) {
		unsigned long first, end, writes = 0, fua = 0;

		sbd_log_epoch(log, nr, nr_epochs, epoch, &first, &end);
		for (i = first; i < end; i++) {
			struct sbd_log_entry *e = sbd_log_entry(log, i);

			writes += sbd_log_is_change(e);
			fua += e->fua;
		}
		len = sbd_log_line(buf, size, len,
				   "epoch %lu first %lu count %lu writes %lu fua %lu flushed %d\n",
				   epoch, first, end - first + (epoch < nr_epochs),
				   writes, fua, epoch < nr_epochs);
		writes = 0;
		for (i = first; i < end; i++) {
			struct sbd_log_entry *e = sbd_log_entry(log, i);

			writes += sbd_log_is_change(e);
			if (e->kind == SBD_LOG_MARK)
				len = sbd_log_line(buf, size, len,
						   "mark %lu epoch %lu after %lu %s\n",
						   i, epoch, writes, e->label);
		}
		cond_resched();
	}
	sbd_log_put(log);
out:
	if (buf && len < size) {
		memset(buf + len, '\n', size - len);
		len = size;
	}
	return len;
}

/*
 * How a state treats the writes of its epoch.  Prefix states keep the
 * first K; a seeded state draws for each write, in order, then for each
 * block of a torn one, so the same seed, epoch and state give the same
 * choices.
 */
VISIBLE_IF_KUNIT void sbd_crash_pick_init(struct sbd_crash_pick *p, u64 seed,
					  u64 epoch, u64 state,
					  unsigned long n)
{
	p->n = n;
	p->state = state;
	prandom_seed_state(&p->rnd, seed ^ (epoch * 0x9e3779b97f4a7c15ULL) ^
			   (state * 0xc2b2ae3d27d4eb4fULL));
}
EXPORT_SYMBOL_IF_KUNIT(sbd_crash_pick_init);

VISIBLE_IF_KUNIT enum sbd_keep sbd_crash_pick_write(struct sbd_crash_pick *p,
						    unsigned long i, bool fua)
{
	if (p->state <= p->n)
		return i < p->state ? SBD_KEEP_ALL : SBD_KEEP_NONE;
	if (fua)
		return SBD_KEEP_ALL;	/* durable once it completed */
	switch (prandom_u32_state(&p->rnd) % 3) {
	case 0:
		return SBD_KEEP_NONE;
	case 1:
		return SBD_KEEP_ALL;
	default:
		return SBD_KEEP_TORN;
	}
}
EXPORT_SYMBOL_IF_KUNIT(sbd_crash_pick_write);

VISIBLE_IF_KUNIT bool sbd_crash_pick_block(struct sbd_crash_pick *p)
{
	return prandom_u32_state(&p->rnd) & 1;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_crash_pick_block);

/* Applies [@pos, @pos + @len) of logged change @e to @dst. */
static int sbd_crash_apply(struct sbd_store *dst, struct sbd_log *log,
			   const struct sbd_log_entry *e, u64 pos, u64 len,
			   void *buf)
{
	u64 src = e->data + (pos - e->pos);

	if (e->kind == SBD_LOG_ZERO)
		return sbd_store_zero(dst, pos, len, GFP_KERNEL);
	while (len) {
		unsigned int chunk = min_t(u64, len, PAGE_SIZE);
		int ret;

		sbd_store_read(&log->data, src, buf, chunk);
		ret = sbd_store_write(dst, pos, buf, chunk, GFP_KERNEL);
		if (ret)
			return ret;
		pos += chunk;
		src += chunk;
		len -= chunk;
		cond_resched();
	}
	return 0;
}

/*
 * A torn write: each physical block it covers kept or not.  The physical
 * block, not the logical one, is what a disk writes whole (a 512e drive
 * writes 4 KiB at a time), and filesystems count on it: ext4's 1 KiB
 * superblock torn between two 512-byte halves fails its checksum.
 */
static int sbd_crash_apply_torn(struct sbd_store *dst, struct sbd_log *log,
				const struct sbd_log_entry *e,
				struct sbd_crash_pick *p, void *buf)
{
	u64 unit = max(log->block_size, log->physical_block_size);
	u64 pos, next, end = e->pos + e->len;
	int ret;

	for (pos = e->pos; pos < end; pos = next) {
		next = min(round_down(pos, unit) + unit, end);
		if (!sbd_crash_pick_block(p))
			continue;
		ret = sbd_crash_apply(dst, log, e, pos, next - pos, buf);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Builds state (@epoch, @state) of @log in @img's store, and notes in
 * @origin the last mark logged before the state's crash point: after its
 * K-th write for a prefix state, at the end of the epoch for the others.
 */
static int sbd_crash_build(struct sbd_dev *img, struct sbd_log *log,
			   unsigned long nr, unsigned long nr_epochs,
			   u64 seed, struct sbd_crash_origin *origin)
{
	unsigned long first, end, i, w = 0;
	struct sbd_crash_pick pick;
	const char *mark = NULL;
	void *buf;
	int ret = 0;

	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	sbd_log_epoch(log, nr, nr_epochs, origin->epoch + 1, &first, &end);
	sbd_crash_pick_init(&pick, seed, origin->epoch, origin->state,
			    origin->writes);
	for (i = 0; i < end && !ret; i++) {
		struct sbd_log_entry *e = sbd_log_entry(log, i);
		enum sbd_keep keep = SBD_KEEP_ALL;

		if (e->kind == SBD_LOG_MARK) {
			/* Logged after w writes of the epoch. */
			if (i < first || w <= origin->state)
				mark = e->label;
			continue;
		}
		if (!sbd_log_is_change(e))
			continue;
		if (i >= first)
			keep = sbd_crash_pick_write(&pick, w++, e->fua);
		if (keep == SBD_KEEP_ALL)
			ret = sbd_crash_apply(&img->store, log, e, e->pos,
					      e->len, buf);
		else if (keep == SBD_KEEP_TORN)
			ret = sbd_crash_apply_torn(&img->store, log, e, &pick,
						   buf);
		cond_resched();
	}
	if (mark)
		strscpy(origin->mark, mark, sizeof(origin->mark));
	kfree(buf);
	return ret;
}

void sbd_crash_origin_free(struct sbd_crash_origin *origin)
{
	if (origin)
		kfree(origin->source);
	kfree(origin);
}

/*
 * Makes @img, a powered-off disk that holds nothing, crash state (@epoch,
 * @state) of @src's write log.  @src goes on serving I/O meanwhile: the
 * log's entries up to now never change.
 */
int sbd_crash_image(struct sbd_dev *img, struct sbd_dev *src, u64 epoch,
		    u64 state)
{
	unsigned long nr = 0, nr_epochs = 0, first, end, i;
	struct sbd_crash_origin *origin;
	const char *name = sbd_dev_name(img);
	struct sbd_log *log;
	u64 max_state;
	int ret;

	log = sbd_log_get(src, &nr, &nr_epochs);
	if (!log) {
		pr_warn("%s: crash_image is refused: %s has no write log\n",
			name, sbd_dev_name(src));
		return -EINVAL;
	}
	/* Epoch @epoch ended, or is the last and still open: E + 1 exists. */
	if (epoch >= nr_epochs) {
		pr_warn("%s: crash_image epoch=%llu is invalid: %s's log has epochs 0 to %lu\n",
			name, epoch, sbd_dev_name(src), nr_epochs - 1);
		ret = -EINVAL;
		goto out_put;
	}
	origin = kzalloc(sizeof(*origin), GFP_KERNEL);
	if (!origin) {
		ret = -ENOMEM;
		goto out_put;
	}
	origin->source = kstrdup(sbd_dev_name(src), GFP_KERNEL);
	if (!origin->source) {
		ret = -ENOMEM;
		goto out_free;
	}
	origin->epoch = epoch;
	origin->state = state;
	sbd_log_epoch(log, nr, nr_epochs, epoch + 1, &first, &end);
	for (i = first; i < end; i++)
		origin->writes += sbd_log_is_change(sbd_log_entry(log, i));
	max_state = origin->writes ? origin->writes + SBD_CRASH_SEEDED : 0;
	if (state > max_state) {
		pr_warn("%s: crash_image state=%llu is invalid: epoch %llu of %s has states 0 to %llu\n",
			name, state, epoch, sbd_dev_name(src), max_state);
		ret = -EINVAL;
		goto out_free;
	}

	mutex_lock(&img->lock);
	if (img->disk || img->store.base || sbd_store_nr_pages(&img->store) ||
	    img->log) {
		pr_warn("%s: crash_image is refused: the disk must be powered off and hold nothing\n",
			name);
		ret = -EBUSY;
		goto out_unlock;
	}
	img->store.base = sbd_layer_get(log->base);
	ret = sbd_crash_build(img, log, nr, nr_epochs,
			      READ_ONCE(src->config.seed), origin);
	if (ret) {
		/* Empty again, as it was. */
		sbd_store_destroy(&img->store);
		sbd_store_init(&img->store);
		goto out_unlock;
	}
	img->config.size = log->size;
	img->config.logical_block_size = log->block_size;
	img->config.physical_block_size = log->physical_block_size;
	swap(img->origin, origin);
out_unlock:
	mutex_unlock(&img->lock);
out_free:
	sbd_crash_origin_free(origin);
out_put:
	sbd_log_put(log);
	return ret;
}
