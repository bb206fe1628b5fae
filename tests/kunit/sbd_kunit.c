// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the parts of sbd that need no block device: the backing
 * store, the made-up geometry, the checks of module parameters and of
 * configfs attributes, how a bio is described to the I/O core, and the
 * error rules.  Built as sbd_kunit.ko on a
 * kernel with KUnit; the cases run when it is loaded, after sbd.ko, and
 * report through KUnit (dmesg and /sys/kernel/debug/kunit/).
 */
#include <kunit/test.h>
#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/hdreg.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../../sbd.h"
#include "../../sbd_io.h"
#include "../../sbd_store.h"
#include "../../sbd_compat.h"

/* ---- backing store ------------------------------------------------------ */

static int sbd_kunit_store_init(struct kunit *test)
{
	struct sbd_store *store = kunit_kzalloc(test, sizeof(*store), GFP_KERNEL);

	if (!store)
		return -ENOMEM;
	sbd_store_init(store);
	test->priv = store;
	return 0;
}

static void sbd_kunit_store_exit(struct kunit *test)
{
	sbd_store_destroy(test->priv);
}

/* Fills @len bytes at @pos with @c; the store allocates what it needs. */
static void sbd_kunit_fill(struct kunit *test, u64 pos, int c,
			   unsigned int len)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, c, len);
	KUNIT_ASSERT_EQ(test, sbd_store_write(test->priv, pos, buf, len,
					      GFP_KERNEL), 0);
}

/* Whether the @len bytes at @pos all read back as @c. */
static bool sbd_kunit_reads(struct kunit *test, u64 pos, int c,
			    unsigned int len)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, ~c, len);
	sbd_store_read(test->priv, pos, buf, len);
	return !memchr_inv(buf, c, len);
}

static void sbd_store_empty_reads_zeros(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0, 3 * PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 1ULL << 40, 0, 512));
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 0);
}

static void sbd_store_allocates_on_write(struct kunit *test)
{
	/* 512 bytes in the middle of page 1: one page, zeros around them. */
	sbd_kunit_fill(test, PAGE_SIZE + 1024, 0xa5, 512);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 1);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE, 0, 1024));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE + 1024, 0xa5,
						512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE + 1536, 0,
						PAGE_SIZE - 1536));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0, PAGE_SIZE));

	/* Rewriting the same page allocates nothing more. */
	sbd_kunit_fill(test, PAGE_SIZE, 0x5a, 512);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 1);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE, 0x5a, 512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE + 1024, 0xa5,
						512));
}

static void sbd_store_write_spans_pages(struct kunit *test)
{
	/* Two pages' worth from the middle of page 3 touches pages 3 to 5. */
	sbd_kunit_fill(test, 3 * PAGE_SIZE + 2048, 0x11, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 3);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 3 * PAGE_SIZE, 0, 2048));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 3 * PAGE_SIZE + 2048,
						0x11, 2 * PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 5 * PAGE_SIZE + 2048, 0,
						PAGE_SIZE - 2048));
}

static void sbd_store_zero_frees_whole_pages(struct kunit *test)
{
	/* Pages 0..3 written; zero from the middle of 0 to the middle of 3. */
	sbd_kunit_fill(test, 0, 0x77, 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sbd_store_zero(test->priv, 512, 3 * PAGE_SIZE, GFP_KERNEL), 0);
	/* Pages 1 and 2 are given back, 0 and 3 zeroed in part. */
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 2);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0x77, 512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 512, 0, 3 * PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 3 * PAGE_SIZE + 512,
						0x77, PAGE_SIZE - 512));
}

static void sbd_store_zero_inside_one_page(struct kunit *test)
{
	sbd_kunit_fill(test, 0, 0x33, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sbd_store_zero(test->priv, 1024, 512, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 1);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0x33, 1024));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 1024, 0, 512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 1536, 0x33,
						PAGE_SIZE - 1536));
	/* Zeroing a hole allocates nothing. */
	KUNIT_EXPECT_EQ(test, sbd_store_zero(test->priv, 10 * PAGE_SIZE + 512, 512, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 1);
}

static void sbd_store_truncate_trims(struct kunit *test)
{
	sbd_kunit_fill(test, 0, 0x44, 4 * PAGE_SIZE);
	sbd_kunit_fill(test, 100 * PAGE_SIZE, 0x44, 512);
	sbd_store_truncate(test->priv, PAGE_SIZE + 512);
	/* Page 0 whole, page 1 up to the new end; the rest gone. */
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 2);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0x44,
						PAGE_SIZE + 512));
	/* What a later grow exposes reads as zeros. */
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE + 512, 0,
						3 * PAGE_SIZE - 512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 100 * PAGE_SIZE, 0, 512));
}

static void sbd_store_next_page_skips_holes(struct kunit *test)
{
	pgoff_t idx = 0;

	sbd_kunit_fill(test, 3 * PAGE_SIZE, 1, 1);
	sbd_kunit_fill(test, 10 * PAGE_SIZE, 1, 1);
	KUNIT_EXPECT_TRUE(test, sbd_store_next_page(test->priv, &idx, 100));
	KUNIT_EXPECT_EQ(test, idx, 3);
	idx = 4;
	KUNIT_EXPECT_TRUE(test, sbd_store_next_page(test->priv, &idx, 100));
	KUNIT_EXPECT_EQ(test, idx, 10);
	idx = 4;
	KUNIT_EXPECT_FALSE(test, sbd_store_next_page(test->priv, &idx, 9));
	idx = 11;
	KUNIT_EXPECT_FALSE(test, sbd_store_next_page(test->priv, &idx,
						     ULONG_MAX));
}

/* Whether page @idx holds @c, read through @cur into @buf; under RCU. */
static bool sbd_kunit_cursor_reads(struct sbd_store_cursor *cur, u8 *buf,
				   pgoff_t idx, int c)
{
	memset(buf, ~c, PAGE_SIZE);
	sbd_store_read_at(cur, (u64)idx << PAGE_SHIFT, buf, PAGE_SIZE);
	return !memchr_inv(buf, c, PAGE_SIZE);
}

/* What page @idx of sbd_store_cursor_walks holds: never 0, like a hole. */
static int sbd_kunit_mark(pgoff_t idx)
{
	return idx % 251 + 1;
}

/*
 * One cursor for many lookups, as a request uses it: along a node, over
 * holes, across node boundaries (64 slots each), far away and back, and
 * on through pages that a write through the cursor allocates mid-walk.
 */
static void sbd_store_cursor_walks(struct kunit *test)
{
	/* 128..130: holes under a node whose slot for them is empty. */
	static const pgoff_t order[] = { 60, 61, 62, 63, 64, 65, 66, 67,
					 128, 129, 130, 4095, 4096, 4097,
					 1, 0, 63, 64 };
	struct sbd_store_cursor cur;
	u8 *buf = kunit_kmalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	bool ok[ARRAY_SIZE(order)];
	int ret = 0;
	pgoff_t i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* Pages 60..67 but 66, and 4095..4097, are written. */
	for (i = 60; i <= 67; i++)
		if (i != 66)
			sbd_kunit_fill(test, i * PAGE_SIZE, sbd_kunit_mark(i),
				       PAGE_SIZE);
	for (i = 4095; i <= 4097; i++)
		sbd_kunit_fill(test, i * PAGE_SIZE, sbd_kunit_mark(i),
			       PAGE_SIZE);

	sbd_store_cursor_init(&cur, test->priv);
	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		pgoff_t idx = order[i];
		bool hole = idx < 60 || idx == 66 || (idx >= 128 && idx < 4095);

		ok[i] = sbd_kunit_cursor_reads(&cur, buf, idx,
					       hole ? 0 : sbd_kunit_mark(idx));
	}
	rcu_read_unlock();
	for (i = 0; i < ARRAY_SIZE(order); i++)
		KUNIT_EXPECT_TRUE_MSG(test, ok[i], "page %lu", order[i]);

	/* Pages 0..129, two at a time through one cursor, as segments are. */
	memset(buf, 0xc3, 2 * PAGE_SIZE);
	sbd_store_cursor_init(&cur, test->priv);
	rcu_read_lock();
	for (i = 0; i < 130 && !ret; i += 2)
		ret = sbd_store_write_at(&cur, (u64)i << PAGE_SHIFT, buf,
					 2 * PAGE_SIZE, GFP_KERNEL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, ret, 0);
	/* 7 of them were there, 123 are new, and 4095..4097 stay. */
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 133);
	for (i = 0; i < 130; i++)
		if (!sbd_kunit_reads(test, i * PAGE_SIZE, 0xc3, PAGE_SIZE))
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, 130, "first page not written");
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 4096 * PAGE_SIZE,
						sbd_kunit_mark(4096),
						PAGE_SIZE));
}

/*
 * A writer that found no page, and made one while another writer put its
 * own there first: its page is dropped (-EEXIST, nothing counted twice),
 * and the same cursor then finds the winner's page and writes into it.
 */
static void sbd_store_lost_race(struct kunit *test)
{
	struct sbd_store_cursor cur;
	u8 *buf = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	int lost, ret;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 0xbb, PAGE_SIZE);
	/* The winner: page 70, in a node of its own. */
	sbd_kunit_fill(test, 70 * PAGE_SIZE, 0xaa, PAGE_SIZE);

	sbd_store_cursor_init(&cur, test->priv);
	rcu_read_lock();
	/* As if this writer had looked up page 70 before the winner came. */
	lost = sbd_store_copy_new(&cur, NULL, 70 * PAGE_SIZE, buf, PAGE_SIZE,
				  GFP_KERNEL);
	ret = sbd_store_write_at(&cur, 70 * PAGE_SIZE + 512, buf, 512,
				 GFP_KERNEL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, lost, -EEXIST);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 1);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 70 * PAGE_SIZE, 0xaa,
						512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 70 * PAGE_SIZE + 512,
						0xbb, 512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 70 * PAGE_SIZE + 1024,
						0xaa, PAGE_SIZE - 1024));
}

static void sbd_store_destroy_frees_all(struct kunit *test)
{
	sbd_kunit_fill(test, 0, 9, 8 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 8);
	sbd_store_destroy(test->priv);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(test->priv), 0);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0, PAGE_SIZE));
}

/*
 * A snapshot: the store's pages move into a layer below it; writes copy a
 * page up before changing it, discards leave holes, a revert brings the
 * layer's contents back, and the layer itself never changes.
 */
static void sbd_store_snapshot_copy_on_write(struct kunit *test)
{
	struct sbd_store *store = test->priv;
	struct sbd_layer *layer;

	sbd_kunit_fill(test, 0, 0x11, 4 * PAGE_SIZE);
	layer = sbd_layer_alloc();
	KUNIT_ASSERT_NOT_NULL(test, layer);
	KUNIT_ASSERT_EQ(test, sbd_snap_freeze_store(store, layer), 0);
	KUNIT_EXPECT_PTR_EQ(test, store->base, layer);
	KUNIT_EXPECT_EQ(test, layer->nr_pages, 4);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(store), 0);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0x11, 4 * PAGE_SIZE));

	/* 512 bytes into page 1: copied up, the rest of it kept. */
	sbd_kunit_fill(test, PAGE_SIZE + 512, 0x22, 512);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(store), 1);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE, 0x11, 512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE + 512, 0x22,
						512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE + 1024, 0x11,
						PAGE_SIZE - 1024));

	/* Page 2 discarded: a hole, no page; part of page 3 zeroed: copied up. */
	KUNIT_EXPECT_EQ(test, sbd_store_zero(store, 2 * PAGE_SIZE,
					     PAGE_SIZE + 512, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(store), 2);
	KUNIT_EXPECT_TRUE(test, xa_is_value(xa_load(&store->pages, 2)));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 2 * PAGE_SIZE, 0,
						PAGE_SIZE + 512));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 3 * PAGE_SIZE + 512,
						0x11, PAGE_SIZE - 512));
	/* A write into the hole starts from zeros, not from the layer. */
	sbd_kunit_fill(test, 2 * PAGE_SIZE, 0x33, 512);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 2 * PAGE_SIZE + 512, 0,
						PAGE_SIZE - 512));

	/* The layer still has the snapshot's contents. */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(page_address(sbd_layer_lookup(layer, 1)),
					    0x11, PAGE_SIZE));
	/* Back to the snapshot: three pages and no hole (written over) go. */
	KUNIT_EXPECT_EQ(test, sbd_store_revert(store), 3);
	KUNIT_EXPECT_EQ(test, sbd_store_nr_pages(store), 0);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0x11, 4 * PAGE_SIZE));
}

/* Freezes the store into a new layer below it. */
static void sbd_kunit_freeze(struct kunit *test)
{
	struct sbd_layer *layer = sbd_layer_alloc();

	KUNIT_ASSERT_NOT_NULL(test, layer);
	KUNIT_ASSERT_EQ(test, sbd_snap_freeze_store(test->priv, layer), 0);
}

/* A snapshot over a snapshot: the newer layer hides the older one. */
static void sbd_store_snapshot_layers(struct kunit *test)
{
	struct sbd_store *store = test->priv;
	pgoff_t idx = 0;

	sbd_kunit_fill(test, 0, 0x44, 2 * PAGE_SIZE);
	sbd_kunit_freeze(test);
	sbd_kunit_fill(test, 0, 0x55, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sbd_store_zero(store, PAGE_SIZE, PAGE_SIZE,
					     GFP_KERNEL), 0);
	sbd_kunit_freeze(test);
	KUNIT_EXPECT_PTR_NE(test, store->base->lower, NULL);
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, 0, 0x55, PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, sbd_kunit_reads(test, PAGE_SIZE, 0, PAGE_SIZE));
	/* Page 0 exists below; page 1 too, as far as a walk is concerned. */
	KUNIT_EXPECT_TRUE(test, sbd_store_next_page(store, &idx, 10));
	KUNIT_EXPECT_EQ(test, idx, 0);
	idx = 2;
	KUNIT_EXPECT_FALSE(test, sbd_store_next_page(store, &idx, 10));
}

static struct kunit_case sbd_store_cases[] = {
	KUNIT_CASE(sbd_store_empty_reads_zeros),
	KUNIT_CASE(sbd_store_allocates_on_write),
	KUNIT_CASE(sbd_store_write_spans_pages),
	KUNIT_CASE(sbd_store_zero_frees_whole_pages),
	KUNIT_CASE(sbd_store_zero_inside_one_page),
	KUNIT_CASE(sbd_store_truncate_trims),
	KUNIT_CASE(sbd_store_next_page_skips_holes),
	KUNIT_CASE(sbd_store_cursor_walks),
	KUNIT_CASE(sbd_store_lost_race),
	KUNIT_CASE(sbd_store_destroy_frees_all),
	KUNIT_CASE(sbd_store_snapshot_copy_on_write),
	KUNIT_CASE(sbd_store_snapshot_layers),
	{}
};

static struct kunit_suite sbd_store_suite = {
	.name = "sbd_store",
	.init = sbd_kunit_store_init,
	.exit = sbd_kunit_store_exit,
	.test_cases = sbd_store_cases,
};

/* ---- geometry and module parameters ------------------------------------- */

static void sbd_geometry_cylinders(struct kunit *test)
{
	struct hd_geometry geo = {};

	sbd_fill_geometry(64 * 1000, &geo);
	KUNIT_EXPECT_EQ(test, geo.heads, 4);
	KUNIT_EXPECT_EQ(test, geo.sectors, 16);
	KUNIT_EXPECT_EQ(test, geo.cylinders, 1000);
	/* A part cylinder does not count. */
	sbd_fill_geometry(64 * 1000 + 63, &geo);
	KUNIT_EXPECT_EQ(test, geo.cylinders, 1000);
	sbd_fill_geometry(0, &geo);
	KUNIT_EXPECT_EQ(test, geo.cylinders, 0);
}

static void sbd_geometry_saturates(struct kunit *test)
{
	struct hd_geometry geo = {};

	sbd_fill_geometry(64ULL * USHRT_MAX, &geo);
	KUNIT_EXPECT_EQ(test, geo.cylinders, USHRT_MAX);
	sbd_fill_geometry(64ULL * USHRT_MAX + 64, &geo);
	KUNIT_EXPECT_EQ(test, geo.cylinders, USHRT_MAX);
	sbd_fill_geometry(U64_MAX >> SECTOR_SHIFT, &geo);
	KUNIT_EXPECT_EQ(test, geo.cylinders, USHRT_MAX);
}

static void sbd_params_valid(struct kunit *test)
{
	/* The defaults, and each limit. */
	KUNIT_EXPECT_EQ(test, sbd_check_params(131072, 512, 1, 15, 0, "bio"),
			0);
	KUNIT_EXPECT_EQ(test, sbd_check_params(1, 4096, 0, 0, 0, "mq"), 0);
	KUNIT_EXPECT_EQ(test, sbd_check_params(SBD_MAX_BYTES / 512, 512,
					       SBD_MAX_DEVICES, SBD_MAX_PART,
					       BLKDEV_MAJOR_MAX - 1, "bio\n"), 0);
}

static void sbd_params_invalid(struct kunit *test)
{
	static const int bad_sizes[] = { 0, -512, 256, 768, 1000, 8192 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_sizes); i++)
		KUNIT_EXPECT_EQ_MSG(test, sbd_check_params(8, bad_sizes[i], 1,
							   15, 0, "bio"),
				    -EINVAL, "hardsect_size=%d", bad_sizes[i]);
	KUNIT_EXPECT_EQ(test, sbd_check_params(0, 512, 1, 15, 0, "bio"),
			-EINVAL);
	/* Bytes past the largest file, and a product that overflows. */
	KUNIT_EXPECT_EQ(test, sbd_check_params(SBD_MAX_BYTES / 512 + 1, 512, 1,
					       15, 0, "bio"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(U64_MAX / 2, 4096, 1, 15, 0,
					       "bio"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, -1, 15, 0, "bio"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, SBD_MAX_DEVICES + 1, 15,
					       0, "bio"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, -1, 0, "bio"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, SBD_MAX_PART + 1, 0,
					       "bio"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, 15, -1, "bio"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, 15,
					       BLKDEV_MAJOR_MAX, "bio"), -EINVAL);
	/* queue_mode: one of the names, nothing else. */
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, 15, 0, "MQ"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, 15, 0, ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, 15, 0, "bio-mq"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_params(8, 512, 1, 15, 0, NULL),
			-EINVAL);
}

static void sbd_params_poll_queues(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sbd_check_poll_queues(0, "bio"), 0);
	KUNIT_EXPECT_EQ(test, sbd_check_poll_queues(0, "mq"), 0);
	KUNIT_EXPECT_EQ(test, sbd_check_poll_queues(1, "mq"), 0);
	KUNIT_EXPECT_EQ(test, sbd_check_poll_queues(nr_cpu_ids, "mq"), 0);
	KUNIT_EXPECT_EQ(test, sbd_check_poll_queues(nr_cpu_ids + 1, "mq"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_check_poll_queues(-1, "mq"), -EINVAL);
	/* Only blk-mq has poll queues. */
	KUNIT_EXPECT_EQ(test, sbd_check_poll_queues(1, "bio"), -EINVAL);
}

static struct kunit_case sbd_params_cases[] = {
	KUNIT_CASE(sbd_geometry_cylinders),
	KUNIT_CASE(sbd_geometry_saturates),
	KUNIT_CASE(sbd_params_valid),
	KUNIT_CASE(sbd_params_invalid),
	KUNIT_CASE(sbd_params_poll_queues),
	{}
};

static struct kunit_suite sbd_params_suite = {
	.name = "sbd_params",
	.test_cases = sbd_params_cases,
};

/* ---- configfs attributes, on a disk that is never powered on ------------ */

static int sbd_kunit_dev_init(struct kunit *test)
{
	struct config_group *group = sbd_cfg_make_group(NULL, "kunit");

	if (IS_ERR(group))
		return PTR_ERR(group);
	test->priv = container_of(group, struct sbd_dev, group);
	return 0;
}

static void sbd_kunit_dev_exit(struct kunit *test)
{
	struct sbd_dev *dev = test->priv;

	config_item_put(&dev->group.cg_item);
}

static struct configfs_attribute *sbd_kunit_attr(struct kunit *test,
						 const char *name)
{
	struct sbd_dev *dev = test->priv;
	struct configfs_attribute **attr;

	for (attr = dev->group.cg_item.ci_type->ct_attrs; *attr; attr++)
		if (!strcmp((*attr)->ca_name, name))
			return *attr;
	KUNIT_FAIL(test, "no attribute %s", name);
	return NULL;
}

/* What writing @val to attribute @name returns: its length, or an errno. */
static ssize_t sbd_kunit_store(struct kunit *test, const char *name,
			       const char *val)
{
	struct configfs_attribute *attr = sbd_kunit_attr(test, name);
	struct sbd_dev *dev = test->priv;

	if (!attr)
		return -ENOENT;
	return attr->store(&dev->group.cg_item, val, strlen(val));
}

/* What attribute @name reads back, without the newline. */
static const char *sbd_kunit_show(struct kunit *test, const char *name)
{
	struct configfs_attribute *attr = sbd_kunit_attr(test, name);
	struct sbd_dev *dev = test->priv;
	char *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	if (!attr || !page)
		return "";
	attr->show(&dev->group.cg_item, page);
	return strim(page);
}

static void sbd_attrs_defaults(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "size"), "1073741824");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "logical_block_size"),
			   "512");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "power"), "0");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "device"), "");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "cache"), "0");
}

static void sbd_attrs_valid_values_stick(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "logical_block_size",
					      "4096\n"), 5);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "physical_block_size",
					      "65536"), 5);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "size", "0x100000"), 8);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "power_cut_keep", "100"),
			3);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "logical_block_size"),
			   "4096");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "physical_block_size"),
			   "65536");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "size"), "1048576");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "power_cut_keep"),
			   "100");
}

static void sbd_attrs_out_of_range(struct kunit *test)
{
	static const char * const bad[][2] = {
		{ "size", "0" },
		{ "size", "511" },
		{ "size", "-1" },
		{ "size", "1G" },
		{ "logical_block_size", "256" },
		{ "logical_block_size", "768" },
		{ "logical_block_size", "8192" },
		{ "physical_block_size", "131072" },
		{ "hw_queues", "0" },
		{ "queue_depth", "0" },
		{ "queue_depth", "1025" },
		{ "discard", "2" },
		{ "read_only", "2" },
		{ "cache", "2" },
		{ "power_cut_keep", "101" },
		{ "latency_us", "10000001" },
		{ "bandwidth_mbps", "1000001" },
		{ "seed", "x" },
		{ "power", "2" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, sbd_kunit_store(test, bad[i][0],
							  bad[i][1]),
				    -EINVAL, "%s=%s", bad[i][0], bad[i][1]);
	/* Nothing was changed by the refused writes. */
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "size"), "1073741824");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "logical_block_size"),
			   "512");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "power_cut_keep"), "0");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "power"), "0");
}

static void sbd_attrs_cross_checks(struct kunit *test)
{
	/* Logical at most physical, whichever is written first. */
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "physical_block_size",
					      "1024"), 4);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "logical_block_size",
					      "2048"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "logical_block_size",
					      "1024"), 4);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "physical_block_size",
					      "512"), -EINVAL);
	/* The size stays a multiple of the logical block size. */
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "size", "1536"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "size", "3072"), 4);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "physical_block_size",
					      "4096"), 4);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "logical_block_size",
					      "4096"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "logical_block_size"),
			   "1024");
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "size"), "3072");
}

static void sbd_attrs_queue_mode(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_mode", "bio\n"), 4);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "queue_mode"), "bio");
	/* The tag set's shape means nothing to a bio-based disk. */
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "hw_queues", "1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_depth", "64"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_mode", "blk-mq"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_mode", "1"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "queue_mode"), "bio");
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_mode", "mq"), 2);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "queue_mode"), "mq");
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "hw_queues", "1"), 1);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_depth", "64"), 2);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "queue_depth"), "64");
}

static void sbd_attrs_poll_queues(struct kunit *test)
{
	char max[16], over[16];

	snprintf(max, sizeof(max), "%u", nr_cpu_ids);
	snprintf(over, sizeof(over), "%u", nr_cpu_ids + 1);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "poll_queues"), "0");
	/* Poll queues are blk-mq's. */
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_mode", "bio"), 3);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "poll_queues", "1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "queue_mode", "mq"), 2);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "poll_queues", max),
			(ssize_t)strlen(max));
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "poll_queues"), max);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "poll_queues", over), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "poll_queues", "-1"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, sbd_kunit_show(test, "poll_queues"), max);
	KUNIT_EXPECT_EQ(test, sbd_kunit_store(test, "poll_queues", "0"), 1);
}

/* ---- the shared I/O description -------------------------------------------- */

/* What sbd_io_from_bio() makes of a bio of @opf for @bytes at @sector. */
static struct sbd_io sbd_kunit_bio_io(blk_opf_t opf, sector_t sector,
				      unsigned int bytes)
{
	struct sbd_io io;
	struct bio bio;

	bio_init(&bio, NULL, NULL, 0, opf);
	bio.bi_iter.bi_sector = sector;
	bio.bi_iter.bi_size = bytes;
	io = sbd_io_from_bio(&bio);
	bio_uninit(&bio);
	io.bio = NULL;		/* it pointed at the stack */
	return io;
}

static void sbd_io_describes_bios(struct kunit *test)
{
	struct sbd_io io;

	io = sbd_kunit_bio_io(REQ_OP_READ, 16, 8192);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_READ);
	KUNIT_EXPECT_EQ(test, io.pos, 8192);
	KUNIT_EXPECT_EQ(test, io.len, 8192);

	/* A bare REQ_PREFLUSH is a flush: no sectors, no flags left over. */
	io = sbd_kunit_bio_io(REQ_OP_WRITE | REQ_PREFLUSH, 0, 0);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_FLUSH);
	KUNIT_EXPECT_EQ(test, io.len, 0);
	KUNIT_EXPECT_FALSE(test, io.flags & (REQ_PREFLUSH | REQ_FUA));
	io = sbd_kunit_bio_io(REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA |
			      REQ_NOWAIT, 0, 0);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_FLUSH);
	KUNIT_EXPECT_TRUE(test, io.flags & REQ_NOWAIT);

	/* With data it stays a write that asks for a flush first. */
	io = sbd_kunit_bio_io(REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA, 8, 4096);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_WRITE);
	KUNIT_EXPECT_TRUE(test, io.flags & REQ_PREFLUSH);
	KUNIT_EXPECT_TRUE(test, io.flags & REQ_FUA);
	KUNIT_EXPECT_EQ(test, io.pos, 4096);

	/* An empty write without REQ_PREFLUSH is no flush. */
	io = sbd_kunit_bio_io(REQ_OP_WRITE, 0, 0);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_WRITE);

	io = sbd_kunit_bio_io(REQ_OP_DISCARD, 2048, 1 << 20);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_DISCARD);
	KUNIT_EXPECT_EQ(test, io.pos, 1 << 20);
	KUNIT_EXPECT_EQ(test, io.len, 1 << 20);
}

/* blk-mq's own flush request carries REQ_PREFLUSH: still one flush. */
static void sbd_io_describes_requests(struct kunit *test)
{
	struct request *rq = kunit_kzalloc(test, sizeof(*rq), GFP_KERNEL);
	struct sbd_io io;

	KUNIT_ASSERT_NOT_NULL(test, rq);
	rq->cmd_flags = REQ_OP_FLUSH | REQ_PREFLUSH;
	io = sbd_io_from_rq(rq);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_FLUSH);
	KUNIT_EXPECT_FALSE(test, io.flags & REQ_PREFLUSH);
	KUNIT_EXPECT_EQ(test, io.len, 0);

	rq->cmd_flags = REQ_OP_WRITE | REQ_FUA;
	rq->__sector = 24;
	rq->__data_len = 8192;
	io = sbd_io_from_rq(rq);
	KUNIT_EXPECT_TRUE(test, io.op == REQ_OP_WRITE);
	KUNIT_EXPECT_TRUE(test, io.flags & REQ_FUA);
	KUNIT_EXPECT_EQ(test, io.pos, 24 * 512);
	KUNIT_EXPECT_EQ(test, io.len, 8192);
}

/* ---- error rules --------------------------------------------------------- */

/* Adds a rule as a write to the errors attribute would. */
/* As configfs does it: with the disk's lock. */
static void sbd_kunit_clear_rules(struct kunit *test)
{
	struct sbd_dev *dev = test->priv;

	mutex_lock(&dev->lock);
	sbd_fault_clear_rules(dev);
	mutex_unlock(&dev->lock);
}

static int sbd_kunit_rule(struct kunit *test, const char *spec)
{
	struct sbd_dev *dev = test->priv;
	char *copy = kunit_kstrdup(test, spec, GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	mutex_lock(&dev->lock);
	ret = sbd_fault_add_rule(dev, copy);
	mutex_unlock(&dev->lock);
	return ret;
}

/*
 * What the rules do to an I/O of @op for @nr sectors at @sector, as the
 * errno the submitter would see.
 */
static int sbd_kunit_check(struct kunit *test, enum req_op op,
			   sector_t sector, unsigned int nr)
{
	const struct sbd_io io = {
		.op	= op,
		.pos	= (u64)sector << SECTOR_SHIFT,
		.len	= nr << SECTOR_SHIFT,
	};

	return blk_status_to_errno(sbd_fault_check(test->priv, &io));
}

static void sbd_rules_next(struct kunit *test)
{
	struct sbd_dev *dev = test->priv;

	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=write next=2 error=medium"),
			0);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_READ, 0, 8),
			0);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_WRITE, 0, 8),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_WRITE, 8, 8),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_WRITE, 16, 8),
			0);
	KUNIT_EXPECT_EQ(test, sbd_stat_read(dev, SBD_STAT_ERRORS_INJECTED), 2);
}

static void sbd_rules_every(struct kunit *test)
{
	unsigned int i, failed = 0;

	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=read every=3"), 0);
	for (i = 1; i <= 9; i++) {
		int err = sbd_kunit_check(test, REQ_OP_READ, i, 1);

		KUNIT_EXPECT_EQ_MSG(test, err, i % 3 ? 0 : -EIO, "read %u", i);
		failed += err != 0;
	}
	KUNIT_EXPECT_EQ(test, failed, 3);
}

static void sbd_rules_prob_bounds(struct kunit *test)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=discard prob=0"), 0);
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=write_zeroes prob=100"),
			0);
	for (i = 0; i < 100; i++) {
		KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_DISCARD, i, 8),
				0);
		KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_WRITE_ZEROES,
						      i, 8), -EIO);
	}
}

static void sbd_rules_sector_range(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "sector=100-199 error=nospc"),
			0);
	/* Inclusive at both ends; any overlap matches. */
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_WRITE, 92, 8),
			0);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_WRITE, 93, 8),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_READ, 199, 1),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_DISCARD, 0, 1024),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_READ, 200, 8),
			0);
	/* A flush has no sectors: a ranged rule never matches it. */
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_FLUSH, 0, 0),
			0);
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=flush"), 0);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_FLUSH, 0, 0),
			-EIO);
}

/* A flush that came as an empty REQ_PREFLUSH write meets the flush rules. */
static void sbd_rules_bio_flush(struct kunit *test)
{
	struct sbd_io io = sbd_kunit_bio_io(REQ_OP_WRITE | REQ_PREFLUSH, 0, 0);

	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=write"), 0);
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=flush sector=0-7"), 0);
	KUNIT_EXPECT_EQ(test, blk_status_to_errno(sbd_fault_check(test->priv, &io)), 0);
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=flush error=medium"), 0);
	KUNIT_EXPECT_EQ(test, blk_status_to_errno(sbd_fault_check(test->priv, &io)),
			-ENODATA);
	/* The write of a PREFLUSH write with data meets the write rules. */
	io = sbd_kunit_bio_io(REQ_OP_WRITE | REQ_PREFLUSH, 0, 4096);
	KUNIT_EXPECT_EQ(test, blk_status_to_errno(sbd_fault_check(test->priv, &io)),
			-EIO);
}

static void sbd_rules_first_match_wins(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=read next=1 error=timeout"),
			0);
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=read,write error=protection"),
			0);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_READ, 0, 8),
			-ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_READ, 0, 8),
			-EILSEQ);
	sbd_kunit_clear_rules(test);
	KUNIT_EXPECT_EQ(test, sbd_kunit_check(test, REQ_OP_READ, 0, 8),
			0);
}

static void sbd_rules_show(struct kunit *test)
{
	static const char rule[] =
		"op=write,discard sector=8-15 every=2 error=medium\n";
	char *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, rule), 0);
	KUNIT_ASSERT_EQ(test, sbd_kunit_rule(test, "op=any"), 0);
	sbd_kunit_check(test, REQ_OP_WRITE, 8, 1);
	sbd_kunit_check(test, REQ_OP_WRITE, 8, 1);
	sbd_fault_show_rules(test->priv, page);
	KUNIT_EXPECT_STREQ(test, page,
			   "0 op=write,discard sector=8-15 every=2 error=medium hits=1\n"
			   "1 op=any always error=ioerr hits=1\n");
}

static void sbd_rules_invalid(struct kunit *test)
{
	static const char * const bad[] = {
		"op=bogus", "op=", "prob=101", "every=0", "sector=5-3",
		"sector=5", "sector=a-b", "next=1 every=2", "error=fatal",
		"nonsense", "next=x",
	};
	unsigned int i;
	char *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, sbd_kunit_rule(test, bad[i]), -EINVAL,
				    "rule '%s'", bad[i]);
	for (i = 0; i < SBD_MAX_RULES; i++)
		KUNIT_EXPECT_EQ(test, sbd_kunit_rule(test, "op=read next=1"), 0);
	KUNIT_EXPECT_EQ(test, sbd_kunit_rule(test, "op=read next=1"), -ENOSPC);
	sbd_kunit_clear_rules(test);
	KUNIT_EXPECT_EQ(test, sbd_fault_show_rules(test->priv, page), 0);
}

/* ---- crash states --------------------------------------------------------- */

/* Prefix states keep the first K writes, whatever the seed. */
static void sbd_crash_prefix_states(struct kunit *test)
{
	struct sbd_crash_pick p;
	unsigned long k, i;

	for (k = 0; k <= 5; k++) {
		sbd_crash_pick_init(&p, 42, 3, k, 5);
		for (i = 0; i < 5; i++)
			KUNIT_EXPECT_EQ(test, sbd_crash_pick_write(&p, i, i == 4),
					i < k ? SBD_KEEP_ALL : SBD_KEEP_NONE);
	}
}

/*
 * Seeded states: the same seed, epoch and state choose the same; FUA
 * writes are always kept whole; over many states every choice occurs.
 */
static void sbd_crash_seeded_states(struct kunit *test)
{
	unsigned int seen[3] = {}, differ = 0;
	struct sbd_crash_pick a, b;
	unsigned long i;
	u64 k;

	for (k = 4; k < 40; k++) {
		bool same = true;

		sbd_crash_pick_init(&a, 7, 1, k, 3);
		sbd_crash_pick_init(&b, 7, 1, k, 3);
		for (i = 0; i < 16; i++) {
			enum sbd_keep ka = sbd_crash_pick_write(&a, i, false);

			KUNIT_EXPECT_EQ(test, sbd_crash_pick_write(&b, i, false), ka);
			seen[ka]++;
			if (ka == SBD_KEEP_TORN)
				KUNIT_EXPECT_EQ(test, sbd_crash_pick_block(&a),
						sbd_crash_pick_block(&b));
			KUNIT_EXPECT_EQ(test, sbd_crash_pick_write(&a, i, true),
					SBD_KEEP_ALL);
			KUNIT_EXPECT_EQ(test, sbd_crash_pick_write(&b, i, true),
					SBD_KEEP_ALL);
		}
		/* Another seed: some choice differs. */
		sbd_crash_pick_init(&a, 8, 1, k, 3);
		sbd_crash_pick_init(&b, 7, 1, k, 3);
		for (i = 0; i < 16; i++)
			same &= sbd_crash_pick_write(&a, i, false) ==
				sbd_crash_pick_write(&b, i, false);
		differ += !same;
	}
	KUNIT_EXPECT_GT(test, seen[SBD_KEEP_NONE], 0);
	KUNIT_EXPECT_GT(test, seen[SBD_KEEP_ALL], 0);
	KUNIT_EXPECT_GT(test, seen[SBD_KEEP_TORN], 0);
	KUNIT_EXPECT_GT(test, differ, 30);
}

static struct kunit_case sbd_dev_cases[] = {
	KUNIT_CASE(sbd_attrs_defaults),
	KUNIT_CASE(sbd_attrs_valid_values_stick),
	KUNIT_CASE(sbd_attrs_out_of_range),
	KUNIT_CASE(sbd_attrs_cross_checks),
	KUNIT_CASE(sbd_attrs_queue_mode),
	KUNIT_CASE(sbd_attrs_poll_queues),
	KUNIT_CASE(sbd_io_describes_bios),
	KUNIT_CASE(sbd_io_describes_requests),
	KUNIT_CASE(sbd_rules_next),
	KUNIT_CASE(sbd_rules_every),
	KUNIT_CASE(sbd_rules_prob_bounds),
	KUNIT_CASE(sbd_rules_sector_range),
	KUNIT_CASE(sbd_rules_bio_flush),
	KUNIT_CASE(sbd_rules_first_match_wins),
	KUNIT_CASE(sbd_rules_show),
	KUNIT_CASE(sbd_rules_invalid),
	KUNIT_CASE(sbd_crash_prefix_states),
	KUNIT_CASE(sbd_crash_seeded_states),
	{}
};

static struct kunit_suite sbd_dev_suite = {
	.name = "sbd_dev",
	.init = sbd_kunit_dev_init,
	.exit = sbd_kunit_dev_exit,
	.test_cases = sbd_dev_cases,
};

kunit_test_suites(&sbd_store_suite, &sbd_params_suite, &sbd_dev_suite);

MODULE_DESCRIPTION("KUnit tests of sbd, the simple block device");
MODULE_LICENSE("GPL");
SBD_IMPORT_KUNIT_NS;
