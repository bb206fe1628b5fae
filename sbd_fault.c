// SPDX-License-Identifier: GPL-2.0
/*
 * sbd fault injection: a disk that misbehaves on purpose.
 *
 * - Error rules fail matching requests before they touch the store, so a
 *   failed write changes nothing: by operation, by sector range, for the
 *   next N matches, every Nth, or with a seeded probability.
 * - A power cut (with the write cache, see sbd_cache.c) leaves the disk
 *   off: every request fails until power is restored.
 * - Delays: each request completes latency_us (plus up to jitter) after it
 *   was queued, and no faster than bandwidth_mbps allows, from an hrtimer:
 *   neither front end sleeps for them.  Armed timers are listed, so that a
 *   power cut can end them at once (EIO) and a power off can end them
 *   before the disk goes; fault.inflight counts them until they have ended.
 *
 * None of this costs the I/O path more than one test of dev->plain when
 * nothing is set.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/wait_bit.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "sbd.h"
#include "sbd_compat.h"

enum sbd_trigger {
	SBD_TRIGGER_ALWAYS,
	SBD_TRIGGER_NEXT,
	SBD_TRIGGER_EVERY,
	SBD_TRIGGER_PROB,
};

static const char * const sbd_trigger_names[] = {
	[SBD_TRIGGER_ALWAYS]	= "always",
	[SBD_TRIGGER_NEXT]	= "next",
	[SBD_TRIGGER_EVERY]	= "every",
	[SBD_TRIGGER_PROB]	= "prob",
};

/* A rule's operations, as a mask of BIT(op); req_op is a __bitwise type. */
#define SBD_OP(op)	BIT((__force unsigned int)(op))

static const struct {
	const char	*name;
	u32		mask;
} sbd_rule_ops[] = {
	{ "read",		SBD_OP(REQ_OP_READ) },
	{ "write",		SBD_OP(REQ_OP_WRITE) },
	{ "flush",		SBD_OP(REQ_OP_FLUSH) },
	{ "discard",		SBD_OP(REQ_OP_DISCARD) },
	{ "write_zeroes",	SBD_OP(REQ_OP_WRITE_ZEROES) },
};

#define SBD_ALL_OPS	(SBD_OP(REQ_OP_READ) | SBD_OP(REQ_OP_WRITE) |	\
			 SBD_OP(REQ_OP_FLUSH) | SBD_OP(REQ_OP_DISCARD) |	\
			 SBD_OP(REQ_OP_WRITE_ZEROES))

static const struct {
	const char	*name;
	blk_status_t	status;
} sbd_rule_errors[] = {
	{ "ioerr",	BLK_STS_IOERR },
	{ "medium",	BLK_STS_MEDIUM },
	{ "nospc",	BLK_STS_NOSPC },
	{ "timeout",	BLK_STS_TIMEOUT },
	{ "protection",	BLK_STS_PROTECTION },
};

void sbd_fault_init(struct sbd_dev *dev)
{
	spin_lock_init(&dev->fault.lock);
	prandom_seed_state(&dev->fault.rnd, dev->config.seed);
	INIT_LIST_HEAD(&dev->fault.pending);
	atomic_set(&dev->fault.inflight, 0);
	dev->fault.stopped = true;	/* until powered on */
}

/* After any attribute changed, with dev->lock held. */
void sbd_fault_update(struct sbd_dev *dev)
{
	struct sbd_fault *f = &dev->fault;
	const struct sbd_config *c = &dev->config;

	spin_lock_irq(&f->lock);
	f->latency_ns = c->latency_us * NSEC_PER_USEC;
	f->jitter_ns = c->latency_jitter_us * NSEC_PER_USEC;
	f->bytes_per_sec = c->bandwidth_mbps * 1000000;
	WRITE_ONCE(f->delays, f->latency_ns || f->jitter_ns || f->bytes_per_sec);
	WRITE_ONCE(f->active, f->nr_rules || f->cut || f->delays);
	spin_unlock_irq(&f->lock);
	sbd_dev_update_plain(dev);
}

int sbd_fault_seed(struct sbd_dev *dev, u64 seed)
{
	spin_lock_irq(&dev->fault.lock);
	prandom_seed_state(&dev->fault.rnd, seed);
	spin_unlock_irq(&dev->fault.lock);
	return 0;
}

/* Ends a delayed completion that nobody else will end any more. */
static void sbd_delayed_end(struct sbd_delayed *d, blk_status_t sts)
{
	struct sbd_fault *f = &d->dev->fault;

	d->status = sts;
	d->end(d);
	/* Wakes sbd_fault_wait() at zero, sbd_fault_room() below the bound. */
	atomic_dec(&f->inflight);
	wake_up_var(&f->inflight);
}

/*
 * Takes every armed completion off the list, with fault.lock held: from
 * now on its timer will not end it (it finds it unarmed).
 */
static void sbd_fault_take_pending(struct sbd_fault *f, struct list_head *taken)
{
	struct sbd_delayed *d, *next;

	lockdep_assert_held(&f->lock);
	list_for_each_entry_safe(d, next, &f->pending, node) {
		d->armed = false;
		list_move_tail(&d->node, taken);
	}
}

/*
 * Ends the completions taken: with @sts, or with its own status if @sts is
 * BLK_STS_OK.  hrtimer_cancel() waits for a timer that has already fired
 * and found its completion gone.
 */
static void sbd_fault_end_taken(struct list_head *taken, blk_status_t sts)
{
	struct sbd_delayed *d, *next;

	list_for_each_entry_safe(d, next, taken, node) {
		hrtimer_cancel(&d->timer);
		list_del(&d->node);
		sbd_delayed_end(d, sts ? sts : d->status);
	}
}

/* Waits until every delayed completion has ended. */
static void sbd_fault_wait(struct sbd_dev *dev)
{
	wait_var_event(&dev->fault.inflight,
		       !atomic_read(&dev->fault.inflight));
}

/*
 * A bio disk has no tags to bound what waits on timers, and a small
 * bandwidth_mbps under a deep queue would let the backlog grow without
 * end: at most SBD_MAX_DELAYED delayed completions per disk (as many as
 * a default mq disk has tags), give or take one per submitting CPU.  A
 * submitter beyond that waits for one to end, at most one delay; with
 * @nowait it is told to come back (false).
 */
bool sbd_fault_room(struct sbd_dev *dev, bool nowait)
{
	atomic_t *n = &dev->fault.inflight;

	if (likely(atomic_read(n) < SBD_MAX_DELAYED))
		return true;
	if (nowait)
		return false;
	wait_var_event(n, atomic_read(n) < SBD_MAX_DELAYED);
	return true;
}

/* Powered on: completions may be delayed again. */
void sbd_fault_start(struct sbd_dev *dev)
{
	spin_lock_irq(&dev->fault.lock);
	dev->fault.stopped = false;
	spin_unlock_irq(&dev->fault.lock);
}

/*
 * Powering off: from now on every request completes at once, and those
 * waiting on a timer complete now, as they were going to.
 */
void sbd_fault_stop(struct sbd_dev *dev)
{
	LIST_HEAD(taken);

	spin_lock_irq(&dev->fault.lock);
	dev->fault.stopped = true;
	sbd_fault_take_pending(&dev->fault, &taken);
	spin_unlock_irq(&dev->fault.lock);
	sbd_fault_end_taken(&taken, BLK_STS_OK);
	sbd_fault_wait(dev);
}

/*
 * Power cut (true) or power restored (false), with dev->lock held.  What
 * waits to complete at the cut fails, as it would on a disk that lost
 * power before it could answer.
 */
int sbd_fault_set_power_cut(struct sbd_dev *dev, bool cut)
{
	LIST_HEAD(taken);

	mutex_lock(&dev->cache.lock);
	if (cut && !dev->fault.cut) {
		sbd_cache_power_cut(dev);
		sbd_log_cut(dev);
	}
	spin_lock_irq(&dev->fault.lock);
	WRITE_ONCE(dev->fault.cut, cut);
	if (cut)
		sbd_fault_take_pending(&dev->fault, &taken);
	spin_unlock_irq(&dev->fault.lock);
	mutex_unlock(&dev->cache.lock);
	sbd_fault_end_taken(&taken, BLK_STS_IOERR);
	sbd_fault_update(dev);
	return 0;
}

static bool sbd_rule_matches(struct sbd_rule *r, const struct sbd_io *io)
{
	sector_t first = io->pos >> SECTOR_SHIFT;
	sector_t last = (io->pos + io->len - 1) >> SECTOR_SHIFT;

	if (!(r->ops & SBD_OP(io->op)))
		return false;
	if (!r->ranged)
		return true;
	/* A flush has no sectors: only rules without a range match it. */
	return io->len && first <= r->last && last >= r->first;
}

/* Called with fault.lock held, for a matching request. */
static bool sbd_rule_fires(struct sbd_fault *f, struct sbd_rule *r)
{
	r->seen++;
	switch (r->trigger) {
	case SBD_TRIGGER_NEXT:
		return r->hits < r->arg;
	case SBD_TRIGGER_EVERY:
		return r->seen % r->arg == 0;
	case SBD_TRIGGER_PROB:
		return prandom_u32_state(&f->rnd) % 100 < r->arg;
	default:
		return true;
	}
}

/*
 * What must happen to @io before it touches the store: BLK_STS_OK, or the
 * error of a power cut or of the first rule that fires.
 */
blk_status_t sbd_fault_check(struct sbd_dev *dev, const struct sbd_io *io)
{
	struct sbd_fault *f = &dev->fault;
	blk_status_t sts = BLK_STS_OK;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&f->lock, flags);
	if (f->cut) {
		sts = BLK_STS_IOERR;
		goto out;
	}
	for (i = 0; i < f->nr_rules; i++) {
		struct sbd_rule *r = &f->rules[i];

		if (sbd_rule_matches(r, io) && sbd_rule_fires(f, r)) {
			r->hits++;
			sts = r->status;
			sbd_count(dev, SBD_STAT_ERRORS_INJECTED);
			break;
		}
	}
out:
	spin_unlock_irqrestore(&f->lock, flags);
	return sts;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_fault_check);

static enum hrtimer_restart sbd_delayed_fire(struct hrtimer *timer)
{
	struct sbd_delayed *d = container_of(timer, struct sbd_delayed, timer);
	struct sbd_fault *f = &d->dev->fault;
	unsigned long flags;
	bool mine;

	spin_lock_irqsave(&f->lock, flags);
	mine = d->armed;
	if (mine) {
		d->armed = false;
		list_del(&d->node);
	}
	spin_unlock_irqrestore(&f->lock, flags);
	/* Not mine: a power cut or power off has taken it to end it. */
	if (mine)
		sbd_delayed_end(d, d->status);
	return HRTIMER_NORESTART;
}

/* A front end's delayed completion, ended by @end. */
void sbd_delayed_init(struct sbd_delayed *d, struct sbd_dev *dev,
		      void (*end)(struct sbd_delayed *d))
{
	sbd_compat_hrtimer_setup(&d->timer, sbd_delayed_fire, CLOCK_MONOTONIC,
				 HRTIMER_MODE_ABS);
	d->armed = false;
	d->dev = dev;
	d->end = end;
}

/*
 * Arms @d if a delay applies to @io, which ended with *@sts: latency plus
 * jitter after now, and not before the bandwidth lets its data through.
 * Returns false if the caller should complete it now, with *@sts: a
 * request done before a power cut but not yet answered fails, as all
 * those waiting on a timer did at the cut.
 */
bool sbd_fault_delay(struct sbd_dev *dev, const struct sbd_io *io,
		     struct sbd_delayed *d, blk_status_t *sts)
{
	struct sbd_fault *f = &dev->fault;
	u64 now, done;
	unsigned long flags;

	if (!READ_ONCE(f->delays))
		return false;
	now = ktime_get_ns();
	spin_lock_irqsave(&f->lock, flags);
	if (f->stopped || f->cut) {
		if (f->cut)
			*sts = BLK_STS_IOERR;
		spin_unlock_irqrestore(&f->lock, flags);
		return false;
	}
	done = now + f->latency_ns;
	if (f->jitter_ns)
		done += mul_u64_u32_shr(f->jitter_ns + 1,
					prandom_u32_state(&f->rnd), 32);
	if (f->bytes_per_sec && (io->op == REQ_OP_READ ||
				 io->op == REQ_OP_WRITE)) {
		u64 start = max(now, f->busy_until);

		f->busy_until = start + div64_u64((u64)io->len * NSEC_PER_SEC,
						  f->bytes_per_sec);
		done = max(done, f->busy_until);
	}
	if (done > now) {
		d->status = *sts;
		d->armed = true;
		list_add_tail(&d->node, &f->pending);
		atomic_inc(&f->inflight);
		hrtimer_start(&d->timer, ns_to_ktime(done), HRTIMER_MODE_ABS);
	}
	spin_unlock_irqrestore(&f->lock, flags);
	return done > now;
}

/* Rule syntax: [op=OPS] [sector=FIRST-LAST] [next=N|every=N|prob=P] [error=E] */
static int sbd_parse_ops(const char *val, u32 *ops)
{
	char buf[64], *s = buf, *tok;
	unsigned int i;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	*ops = 0;
	while ((tok = strsep(&s, ","))) {
		if (!strcmp(tok, "any")) {
			*ops |= SBD_ALL_OPS;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(sbd_rule_ops); i++)
			if (!strcmp(tok, sbd_rule_ops[i].name))
				break;
		if (i == ARRAY_SIZE(sbd_rule_ops))
			return -EINVAL;
		*ops |= sbd_rule_ops[i].mask;
	}
	return 0;
}

static int sbd_parse_range(char *val, sector_t *first, sector_t *last)
{
	char *dash = strchr(val, '-');
	u64 a, b;

	if (!dash)
		return -EINVAL;
	*dash = '\0';
	if (kstrtou64(val, 0, &a) || kstrtou64(dash + 1, 0, &b) || a > b)
		return -EINVAL;
	*first = a;
	*last = b;
	return 0;
}

static int sbd_parse_rule(char *spec, struct sbd_rule *r)
{
	char *tok;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->ops = SBD_ALL_OPS;
	r->status = BLK_STS_IOERR;
	while ((tok = strsep(&spec, " \t\n"))) {
		char *val = strchr(tok, '=');

		if (!*tok)
			continue;
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "op")) {
			if (sbd_parse_ops(val, &r->ops))
				return -EINVAL;
		} else if (!strcmp(tok, "sector")) {
			if (sbd_parse_range(val, &r->first, &r->last))
				return -EINVAL;
			r->ranged = true;
		} else if (!strcmp(tok, "error")) {
			for (i = 0; i < ARRAY_SIZE(sbd_rule_errors); i++)
				if (!strcmp(val, sbd_rule_errors[i].name))
					break;
			if (i == ARRAY_SIZE(sbd_rule_errors))
				return -EINVAL;
			r->status = sbd_rule_errors[i].status;
		} else {
			for (i = SBD_TRIGGER_NEXT; i <= SBD_TRIGGER_PROB; i++)
				if (!strcmp(tok, sbd_trigger_names[i]))
					break;
			if (i > SBD_TRIGGER_PROB || r->trigger ||
			    kstrtou64(val, 0, &r->arg))
				return -EINVAL;
			r->trigger = i;
			if ((i == SBD_TRIGGER_PROB && r->arg > 100) ||
			    (i == SBD_TRIGGER_EVERY && !r->arg))
				return -EINVAL;
		}
	}
	return 0;
}

/* Adds the rule written to the errors attribute, with dev->lock held. */
int sbd_fault_add_rule(struct sbd_dev *dev, char *spec)
{
	struct sbd_fault *f = &dev->fault;
	struct sbd_rule r;
	char copy[128];

	strscpy(copy, spec, sizeof(copy));
	strim(copy);
	if (sbd_parse_rule(spec, &r)) {
		pr_warn("%s: errors rule '%s' is invalid: op=read|write|flush|discard|write_zeroes|any sector=FIRST-LAST next=N|every=N|prob=0..100 error=ioerr|medium|nospc|timeout|protection\n",
			sbd_dev_name(dev), copy);
		return -EINVAL;
	}
	spin_lock_irq(&f->lock);
	if (f->nr_rules == SBD_MAX_RULES) {
		spin_unlock_irq(&f->lock);
		pr_warn("%s: errors rule '%s' refused: at most %d rules\n",
			sbd_dev_name(dev), copy, SBD_MAX_RULES);
		return -ENOSPC;
	}
	f->rules[f->nr_rules++] = r;
	spin_unlock_irq(&f->lock);
	sbd_fault_update(dev);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_fault_add_rule);

void sbd_fault_clear_rules(struct sbd_dev *dev)
{
	spin_lock_irq(&dev->fault.lock);
	dev->fault.nr_rules = 0;
	spin_unlock_irq(&dev->fault.lock);
	sbd_fault_update(dev);
}
EXPORT_SYMBOL_IF_KUNIT(sbd_fault_clear_rules);

static int sbd_show_ops(char *buf, size_t size, u32 ops)
{
	unsigned int i;
	int len = 0;

	if (ops == SBD_ALL_OPS)
		return scnprintf(buf, size, "any");
	for (i = 0; i < ARRAY_SIZE(sbd_rule_ops); i++)
		if (ops & sbd_rule_ops[i].mask)
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? "," : "", sbd_rule_ops[i].name);
	return len;
}

/*
 * One line per rule: its number, its fields as written ("always" when it
 * has no trigger), its hits.
 */
ssize_t sbd_fault_show_rules(struct sbd_dev *dev, char *page)
{
	struct sbd_fault *f = &dev->fault;
	ssize_t len = 0;
	unsigned int i, e;

	spin_lock_irq(&f->lock);
	for (i = 0; i < f->nr_rules; i++) {
		struct sbd_rule *r = &f->rules[i];

		len += scnprintf(page + len, PAGE_SIZE - len, "%u op=", i);
		len += sbd_show_ops(page + len, PAGE_SIZE - len, r->ops);
		if (r->ranged)
			len += scnprintf(page + len, PAGE_SIZE - len,
					 " sector=%llu-%llu",
					 (u64)r->first, (u64)r->last);
		if (r->trigger)
			len += scnprintf(page + len, PAGE_SIZE - len, " %s=%llu",
					 sbd_trigger_names[r->trigger], r->arg);
		else
			len += scnprintf(page + len, PAGE_SIZE - len, " always");
		for (e = 0; e < ARRAY_SIZE(sbd_rule_errors); e++)
			if (sbd_rule_errors[e].status == r->status)
				break;
		len += scnprintf(page + len, PAGE_SIZE - len,
				 " error=%s hits=%llu\n",
				 sbd_rule_errors[e].name, r->hits);
	}
	spin_unlock_irq(&f->lock);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(sbd_fault_show_rules);
