// SPDX-License-Identifier: GPL-2.0
/*
 * sbdctl crash-test: runs a workload once on a disk of its own, with the
 * write cache on and a write log, then checks every crash state the
 * workload could have left: each prefix of each flush epoch and some
 * seeded ones (kept, lost and torn writes), each made a crash image and
 * handed to the user's check command.
 *
 * The steps are the ones a user would type (create, snapshot, mark,
 * crash-image, remove); what this file adds is the bookkeeping: which
 * states, the check processes (several at once with --jobs), the summary,
 * and that every disk it made goes again, on ^C and on error too.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sbdctl.h"

static const char usage_crash_test[] =
"Usage: sbdctl crash-test --size SIZE --run CMD --check CMD [OPTIONS]\n"
"\n"
"Makes a disk with the write cache on, runs --mkfs and --setup on it, takes\n"
"a snapshot with a write log, runs --run once, then checks crash states of\n"
"each flush epoch: every prefix (the crash right after the K-th write) and\n"
"--states seeded ones (each write kept, lost or torn).  Each state becomes\n"
"a crash image that --check is run against; a check that exits non-zero is\n"
"a failing state.  Every disk it made is removed at the end, on ^C and on\n"
"error too.\n"
"\n"
"The commands run with sh -c, with SBD_DEV (the device) and SBD_DISK (its\n"
"name, for 'sbdctl mark \"$SBD_DISK\" LABEL'); --mkfs, --setup and --run\n"
"print on sbdctl's stderr.  --check also gets SBD_STATE (E:K), SBD_EPOCH,\n"
"SBD_K and SBD_MARK (the last mark logged before the crash point, empty if\n"
"none); its output is kept, and shown (its last 4 KiB) if it fails.\n"
"\n"
"  -s, --size SIZE      the disk's size (required)\n"
"      --mkfs CMD       run first, before the baseline\n"
"      --setup CMD      run next, before the baseline\n"
"      --run CMD        the workload, logged (required)\n"
"      --check CMD      run on each crash state (required)\n"
"      --states N       seeded states per epoch besides the prefixes (4)\n"
"      --seed S         the disk's seed, which draws the seeded states (1)\n"
"      --epochs A-B     only epochs A to B (E as in crash-image; A-, A)\n"
"  -j, --jobs J         checks at once (1; at most 16)\n"
"      --log-limit SIZE the write log's limit (256M; a full log is an error)\n"
"  -k, --keep-failures  if states fail: keep their disks, and the workload's\n"
"  -J, --json           the summary as a JSON object\n"
"  -h, --help           show this help\n"
"Exit status: 0 no state failed, 1 some failed (or a command or the disk\n"
"did), 2 usage, 3 no module or configfs.\n";

#define CT_MAX_JOBS	16
#define CT_MAX_STATES	1000000	/* the kernel's seeded states per epoch */
#define CT_OUT_KEEP	4096	/* the tail of a failing check's output */

struct ct_opts {
	uint64_t size, log_limit, states, seed, jobs, first, last;
	const char *mkfs, *setup, *run, *check;
	bool json, keep;
};

/* A state to check, and once checked its result. */
struct ct_state {
	uint64_t epoch, k;
	int status;		/* the check's exit status; 128+N: signal N */
	bool kept;		/* its disk kept (--keep-failures): dev, NAME-i */
	char dev[24];		/* "sbdN" */
	char mark[128];
	char *out;		/* a failing check's output (its tail) */
};

/*
 * An epoch of the log: n writes (crash-image epoch = log epoch - 1);
 * mark0: a mark was logged before its first write, so (E, 0) differs from
 * (E - 1, n) in what was promised.
 */
struct ct_epoch {
	uint64_t epoch, writes, states, failed;
	bool mark0;
};

/* A check running on a crash image. */
struct ct_job {
	pid_t pid;
	size_t state;
	char name[96];
	char dev[24];
	FILE *out;
};

/* More states than this is a mistake: narrow --epochs or --states. */
#define CT_MAX_TOTAL	(10 * 1000 * 1000)

/*
 * The process groups of the commands running now (slot CT_MAX_JOBS: mkfs,
 * setup or run), for the signal handler: a first signal ends them
 * (SIGTERM, and SIGCONT for a stopped one), a second kills them.
 */
static volatile sig_atomic_t ct_stop, ct_signals;
static volatile pid_t ct_groups[CT_MAX_JOBS + 1];
static const int ct_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void ct_on_signal(int sig)
{
	int saved = errno, how = ct_signals++ ? SIGKILL : SIGTERM;
	size_t i;

	ct_stop = sig;
	for (i = 0; i < ARRAY_SIZE(ct_groups); i++) {
		if (ct_groups[i] > 0) {
			kill(-ct_groups[i], how);
			kill(-ct_groups[i], SIGCONT);
		}
	}
	errno = saved;
}

static double ct_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Starts sh -c cmd in a process group of its own, known to the signal
 * handler as slot (so that a ^C ends all of it), its stdout and stderr on
 * out (NULL: sbdctl's stderr), stdin /dev/null; env holds "NAME=VALUE"
 * strings to add.  The pid; -1 with errno set, EINTR once stopping.
 */
static pid_t ct_spawn(const char *cmd, FILE *out, char *const env[],
		      size_t slot)
{
	sigset_t block, old;
	size_t i;
	pid_t pid;
	int fd;

	/* no handler runs between the fork and the slot being set */
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(ct_sigs); i++)
		sigaddset(&block, ct_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (ct_stop) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		errno = EINTR;
		return -1;
	}
	pid = fork();
	if (pid) {
		if (pid > 0) {
			setpgid(pid, pid);	/* before any kill(-pid) */
			ct_groups[slot] = pid;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		return pid;
	}
	setpgid(0, 0);
	for (i = 0; i < ARRAY_SIZE(ct_sigs); i++)
		signal(ct_sigs[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	fd = out ? fileno(out) : STDERR_FILENO;
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	fd = open("/dev/null", O_RDONLY);
	if (fd > STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	for (; *env; env++)
		putenv(*env);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* An exit status as the shell gives it: 128 + N for signal N. */
static int ct_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	return 128 + WTERMSIG(wstatus);
}

/*
 * Waits for pid (-1: any child) to end, then kills what it left running
 * in its group (while the leader is a zombie its group id cannot be
 * reused), reaps it and frees its slot.  The child's pid, or -1.
 */
static pid_t ct_wait(pid_t pid, int *status)
{
	siginfo_t info;
	int wstatus;
	size_t i;

	for (;;) {
		memset(&info, 0, sizeof(info));
		if (!waitid(pid < 0 ? P_ALL : P_PID, pid < 0 ? 0 : pid, &info,
			    WEXITED | WNOWAIT))
			break;
		if (errno != EINTR)
			return -1;
	}
	pid = info.si_pid;
	kill(-pid, SIGKILL);
	while (waitpid(pid, &wstatus, 0) < 0)
		if (errno != EINTR)
			return -1;
	for (i = 0; i < ARRAY_SIZE(ct_groups); i++)
		if (ct_groups[i] == pid)
			ct_groups[i] = 0;
	*status = ct_status(wstatus);
	return pid;
}

/* Runs one of the user's commands to the end: 0, or a message's code. */
static int ct_command(const char *what, const char *cmd, char *const env[])
{
	int status;
	pid_t pid;

	pid = ct_spawn(cmd, NULL, env, CT_MAX_JOBS);
	if (pid < 0 && errno == EINTR)
		return errorf(SBDCTL_EXIT_FAIL, "interrupted before --%s", what);
	if (pid < 0)
		return errorf(SBDCTL_EXIT_FAIL, "cannot run --%s: %s", what,
			      strerror(errno));
	if (ct_wait(pid, &status) < 0)
		return errorf(SBDCTL_EXIT_FAIL, "--%s: %s", what,
			      strerror(errno));
	if (ct_stop)
		return errorf(SBDCTL_EXIT_FAIL, "interrupted during --%s", what);
	if (status)
		return errorf(SBDCTL_EXIT_FAIL, "--%s exited with status %d",
			      what, status);
	return SBDCTL_EXIT_OK;
}

/* Unmounts whatever is mounted from /dev/NAME or its partitions. */
static void ct_unmount(const char *dev)
{
	char line[4096], src[PATH_MAX], dir[PATH_MAX], want[ROOT_MAX + 80];
	int pass;
	size_t n;
	FILE *f;

	n = snprintf(want, sizeof(want), "%s/%s", dev_dir, dev);
	for (pass = 0; pass < 8; pass++) {
		bool found = false;

		f = fopen("/proc/self/mounts", "re");
		if (!f)
			return;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%4095s %4095s", src, dir) != 2 ||
			    strncmp(src, want, n) ||
			    (src[n] && src[n] != 'p'))
				continue;
			if (umount2(dir, 0))
				umount2(dir, MNT_DETACH);
			found = true;
		}
		fclose(f);
		if (!found)
			return;
	}
}

/* Powers off and removes a disk crash-test made (name), quietly. */
static void ct_remove(const char *name)
{
	char path[PATH_MAX], dev[64];

	item_path(path, name, "device");
	if (!read_file(path, dev, sizeof(dev)) && dev[0])
		ct_unmount(dev);
	write_attr(name, "power", "0");
	item_path(path, name, NULL);
	if (rmdir(path) && errno != ENOENT)
		errorf(0, "could not remove disk '%s' it made: %s", name,
		       strerror(errno));
}

/* The device of a powered item into dev ("sbdN"); an exit code. */
static int ct_device(const char *name, char *dev, size_t size)
{
	char path[PATH_MAX];
	int err;

	item_path(path, name, "device");
	err = read_file(path, dev, size);
	if (err)
		return errorf(SBDCTL_EXIT_FAIL, "%s: %s", path, strerror(-err));
	if (sbd_index(dev) < 0)
		return errorf(SBDCTL_EXIT_FAIL, "%s: power=1 gave no device",
			      name);
	return SBDCTL_EXIT_OK;
}

/* The value after key in a "KEY VALUE KEY VALUE" line, or def. */
static uint64_t ct_field(const char *line, const char *key, uint64_t def)
{
	size_t n = strlen(key);
	const char *p = line;
	unsigned long long v;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[n] == ' ' &&
		    sscanf(p + n, " %llu", &v) == 1)
			return v;
		p += n;
	}
	return def;
}

/*
 * The epochs of the log in range, into *epochs; an exit code.  A full
 * log is an error: the states after what it dropped would be wrong.
 */
static int ct_read_log(const char *name, const struct ct_opts *o,
		       struct ct_epoch **epochs, size_t *nepochs)
{
	struct ct_epoch *e = NULL;
	char *text, *line, *save = NULL;
	size_t n = 0, i;
	uint64_t ep;
	int ret;

	text = read_log(name, &ret);
	if (!text)
		return ret;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "log ", 4) &&
		    (ct_field(line, "full", 0) || ct_field(line, "dropped", 0))) {
			free(text);
			free(e);
			return errorf(SBDCTL_EXIT_FAIL,
				      "the write log filled up (limit %llu bytes): give a larger --log-limit",
				      (unsigned long long)o->log_limit);
		}
		/* "mark ENTRY epoch N after 0 LABEL": before N's first write */
		if (!strncmp(line, "mark ", 5)) {
			ep = ct_field(line, "epoch", 0);
			for (i = 0; ep && i < n; i++)
				if (e[i].epoch == ep - 1 &&
				    !ct_field(line, "after", 1))
					e[i].mark0 = true;
			continue;
		}
		if (strncmp(line, "epoch ", 6))
			continue;
		/* log epoch N is crash-image epoch N - 1: N - 1 is durable */
		ep = ct_field(line, "epoch", 0);
		if (!ep || ep - 1 < o->first || ep - 1 > o->last)
			continue;
		e = xrealloc(e, (n + 1) * sizeof(*e));
		e[n].epoch = ep - 1;
		e[n].writes = ct_field(line, "writes", 0);
		e[n].states = 0;
		e[n].failed = 0;
		e[n].mark0 = false;
		n++;
	}
	free(text);
	*epochs = e;
	*nepochs = n;
	return SBDCTL_EXIT_OK;
}

/*
 * The states of the epochs: (E, 1..n), n + 1 .. n + states seeded ones of
 * each epoch that has writes, and (E, 0) for the first epoch and those
 * with a mark before their first write (otherwise (E, 0) is (E - 1, n)
 * again: the same bytes, the same mark).
 */
static struct ct_state *ct_list_states(struct ct_epoch *e, size_t ne,
				       uint64_t seeded, size_t *count)
{
	struct ct_state *s = NULL;
	size_t n = 0, cap = 0, i;
	uint64_t k, last, total = 0;

	for (i = 0; i < ne; i++)
		total += e[i].writes + seeded + 1;
	if (total > CT_MAX_TOTAL)
		return NULL;
	for (i = 0; i < ne; i++) {
		last = e[i].writes ? e[i].writes + seeded : 0;
		for (k = i && !e[i].mark0 ? 1 : 0; k <= last; k++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				s = xrealloc(s, cap * sizeof(*s));
			}
			memset(&s[n], 0, sizeof(s[n]));
			s[n].epoch = e[i].epoch;
			s[n].k = k;
			n++;
			e[i].states++;
		}
	}
	*count = n;
	return s;
}

/* The last bytes of a check's output, as one string. */
static char *ct_tail(FILE *f)
{
	char *buf = xrealloc(NULL, CT_OUT_KEEP + 1);
	long end;
	size_t n;

	fflush(f);
	end = fseek(f, 0, SEEK_END) ? 0 : ftell(f);
	if (end < 0)
		end = 0;
	fseek(f, end > CT_OUT_KEEP ? end - CT_OUT_KEEP : 0, SEEK_SET);
	n = fread(buf, 1, CT_OUT_KEEP, f);
	buf[n] = '\0';
	return buf;
}

/*
 * Makes state s (number si) a crash image of src and starts the check on
 * it in job j (the handler's slot); an exit code, or -1 when a signal
 * came first (nothing left).
 */
static int ct_start_check(const struct ct_opts *o, const char *src,
			  struct ct_state *s, size_t si, struct ct_job *j,
			  size_t slot)
{
	char val[400], path[PATH_MAX], *dev = j->dev, *name = j->name;
	char env_dev[ROOT_MAX + 80], env_disk[300], env_state[80], env_epoch[40];
	char env_k[40], env_mark[160];
	char *env[] = { env_dev, env_disk, env_state, env_epoch, env_k,
			env_mark, NULL };
	pid_t pid;
	int ret;

	snprintf(name, sizeof(j->name), "%.60s-%zu", src, si);
	ret = make_item(name, true);
	if (ret)
		return ret;
	snprintf(val, sizeof(val), "%s %llu %llu", src,
		 (unsigned long long)s->epoch, (unsigned long long)s->k);
	ret = set_attr(name, "crash_image", val);
	if (!ret)
		ret = set_attr(name, "power", "1");
	if (!ret)
		ret = ct_device(name, dev, sizeof(j->dev));
	if (!ret) {
		item_path(path, name, "crash_mark");
		if (read_file(path, s->mark, sizeof(s->mark)))
			s->mark[0] = '\0';
		j->out = tmpfile();
		if (!j->out)
			ret = errorf(SBDCTL_EXIT_FAIL, "tmpfile: %s",
				     strerror(errno));
		else	/* the other checks do not inherit it */
			fcntl(fileno(j->out), F_SETFD, FD_CLOEXEC);
	}
	if (ret) {
		ct_remove(name);
		return ret;
	}
	snprintf(env_dev, sizeof(env_dev), "SBD_DEV=%s/%s", dev_dir, dev);
	snprintf(env_disk, sizeof(env_disk), "SBD_DISK=%s", name);
	snprintf(env_state, sizeof(env_state), "SBD_STATE=%llu:%llu",
		 (unsigned long long)s->epoch, (unsigned long long)s->k);
	snprintf(env_epoch, sizeof(env_epoch), "SBD_EPOCH=%llu",
		 (unsigned long long)s->epoch);
	snprintf(env_k, sizeof(env_k), "SBD_K=%llu", (unsigned long long)s->k);
	snprintf(env_mark, sizeof(env_mark), "SBD_MARK=%s", s->mark);
	pid = ct_spawn(o->check, j->out, env, slot);
	if (pid < 0) {
		ret = errno == EINTR ? -1 :
		      errorf(SBDCTL_EXIT_FAIL, "cannot run --check: %s",
			     strerror(errno));
		fclose(j->out);
		j->out = NULL;
		ct_remove(name);
		return ret;
	}
	j->pid = pid;
	j->state = si;
	return SBDCTL_EXIT_OK;
}

/* A check ended: its result into its state, its disk removed or kept. */
static void ct_finish(const struct ct_opts *o, struct ct_state *states,
		      struct ct_job *j, int status)
{
	struct ct_state *s = &states[j->state];

	s->status = status;
	if (status && !ct_stop) {
		s->out = ct_tail(j->out);
		s->kept = o->keep;
		snprintf(s->dev, sizeof(s->dev), "%s", j->dev);
	}
	fclose(j->out);
	j->out = NULL;
	if (!s->kept)
		ct_remove(j->name);
	j->pid = 0;
}

static void ct_progress(size_t done, size_t total, size_t failed, double t0)
{
	double dt = ct_now() - t0;

	fprintf(stderr, "\rcrash-test: %zu/%zu states, %zu failed, %.1f states/s ",
		done, total, failed, dt > 0 ? done / dt : 0.0);
}

/* Prints s with each line indented, for the failing checks' output. */
static void ct_print_indented(const char *s)
{
	while (*s) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		printf("    | %.*s\n", len, s);
		s += len + (nl ? 1 : 0);
	}
}

static void ct_summary(const struct ct_opts *o, const char *src, bool kept,
		       const struct ct_epoch *e, size_t ne,
		       const struct ct_state *s, size_t ns, size_t failed,
		       double secs)
{
	double rate = secs > 0 ? ns / secs : 0;
	char dev[ROOT_MAX + 32];
	bool first = true;
	size_t i;

	if (o->json) {
		printf("{\"seed\": %llu, \"size\": %llu, \"source\": ",
		       (unsigned long long)o->seed,
		       (unsigned long long)o->size);
		if (kept)
			print_json_string(src);
		else
			fputs("null", stdout);
		printf(", \"states\": %zu, \"failed\": %zu, \"seconds\": %.3f, \"states_per_second\": %.2f, \"epochs\": [",
		       ns, failed, secs, rate);
		for (i = 0; i < ne; i++)
			printf("%s{\"epoch\": %llu, \"writes\": %llu, \"states\": %llu, \"failed\": %llu}",
			       i ? ", " : "", (unsigned long long)e[i].epoch,
			       (unsigned long long)e[i].writes,
			       (unsigned long long)e[i].states,
			       (unsigned long long)e[i].failed);
		fputs("], \"failures\": [", stdout);
		for (i = 0; i < ns; i++) {
			if (!s[i].status)
				continue;
			printf("%s{\"epoch\": %llu, \"state\": %llu, \"status\": %d, \"mark\": ",
			       first ? "" : ", ",
			       (unsigned long long)s[i].epoch,
			       (unsigned long long)s[i].k, s[i].status);
			first = false;
			if (s[i].mark[0])
				print_json_string(s[i].mark);
			else
				fputs("null", stdout);
			fputs(", \"device\": ", stdout);
			snprintf(dev, sizeof(dev), "%s/%s", dev_dir, s[i].dev);
			if (s[i].kept)
				print_json_string(dev);
			else
				fputs("null", stdout);
			fputs(", \"output\": ", stdout);
			print_json_string(s[i].out ? s[i].out : "");
			putchar('}');
		}
		puts("]}");
		return;
	}
	printf("%zu states checked, %zu failed, in %.1f s (%.2f states/s), seed %llu\n",
	       ns, failed, secs, rate, (unsigned long long)o->seed);
	printf("%6s %7s %7s %7s\n", "EPOCH", "WRITES", "STATES", "FAILED");
	for (i = 0; i < ne; i++)
		printf("%6llu %7llu %7llu %7llu\n",
		       (unsigned long long)e[i].epoch,
		       (unsigned long long)e[i].writes,
		       (unsigned long long)e[i].states,
		       (unsigned long long)e[i].failed);
	for (i = 0; i < ns; i++) {
		if (!s[i].status)
			continue;
		printf("FAILED state %llu:%llu (check exit %d), mark: %s\n",
		       (unsigned long long)s[i].epoch,
		       (unsigned long long)s[i].k, s[i].status,
		       s[i].mark[0] ? s[i].mark : "(none)");
		if (kept)
			printf("  again: sbdctl crash-image %s --epoch %llu --state %llu\n",
			       src, (unsigned long long)s[i].epoch,
			       (unsigned long long)s[i].k);
		if (s[i].kept)
			printf("  kept: %s/%s (disk %.60s-%zu)\n", dev_dir,
			       s[i].dev, src, i);
		if (s[i].out && s[i].out[0])
			ct_print_indented(s[i].out);
	}
	if (failed && !kept)
		printf("(--keep-failures keeps the failing states and the workload's disk to look at them again)\n");
}

/* --epochs A-B, A- or A. */
static int ct_parse_epochs(const char *arg, struct ct_opts *o)
{
	char a[32], *dash;

	if (strlen(arg) >= sizeof(a))
		return -1;
	strcpy(a, arg);
	dash = strchr(a, '-');
	if (dash)
		*dash++ = '\0';
	if (parse_uint(a, UINT64_MAX, &o->first))
		return -1;
	o->last = o->first;
	if (dash)
		o->last = *dash ? 0 : UINT64_MAX;
	if (dash && *dash && parse_uint(dash, UINT64_MAX, &o->last))
		return -1;
	return o->last < o->first ? -1 : 0;
}

/* Runs the checks of every state, jobs at once; the number that failed. */
static size_t ct_check_all(const struct ct_opts *o, const char *src,
			   struct ct_epoch *e, size_t ne, struct ct_state *s,
			   size_t ns, int *ret, double *secs)
{
	struct ct_job jobs[CT_MAX_JOBS] = { };
	size_t next = 0, done = 0, failed = 0, running = 0, i, k, x;
	bool tty = isatty(STDERR_FILENO);
	double t0 = ct_now();
	int status, r;
	pid_t pid;

	while (done < ns) {
		/* fill the free slots, unless stopping or failing */
		for (i = 0; i < o->jobs && next < ns && !ct_stop && !*ret; i++) {
			if (jobs[i].pid)
				continue;
			r = ct_start_check(o, src, &s[next], next, &jobs[i], i);
			if (r < 0)
				break;
			*ret = r;
			if (r)
				break;
			next++;
			running++;
		}
		if (!running)
			break;
		pid = ct_wait(-1, &status);
		if (pid < 0)
			break;
		for (i = 0; i < o->jobs && jobs[i].pid != pid; i++)
			;
		if (i == o->jobs)
			continue;
		k = jobs[i].state;
		ct_finish(o, s, &jobs[i], status);
		running--;
		if (ct_stop)
			continue;	/* ended by us: not checked */
		done++;
		if (status) {
			failed++;
			for (x = 0; x < ne; x++)
				if (e[x].epoch == s[k].epoch)
					e[x].failed++;
		}
		if (tty)
			ct_progress(done, ns, failed, t0);
	}
	/* only after a failed wait: end what still runs */
	for (i = 0; i < o->jobs; i++) {
		if (!jobs[i].pid)
			continue;
		kill(-jobs[i].pid, SIGKILL);
		while (waitpid(jobs[i].pid, &status, 0) < 0 && errno == EINTR)
			;
		ct_groups[i] = 0;
		ct_finish(o, s, &jobs[i], 0);
	}
	if (tty)
		fputc('\n', stderr);
	*secs = ct_now() - t0;
	if (!*ret && done < ns)
		*ret = errorf(SBDCTL_EXIT_FAIL, ct_stop ?
			      "interrupted after %zu of %zu states" :
			      "stopped after %zu of %zu states", done, ns);
	return failed;
}

int cmd_crash_test(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "mkfs", required_argument, NULL, 'm' },
		{ "setup", required_argument, NULL, 'S' },
		{ "run", required_argument, NULL, 'r' },
		{ "check", required_argument, NULL, 'c' },
		{ "states", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'e' },
		{ "epochs", required_argument, NULL, 'E' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "log-limit", required_argument, NULL, 'l' },
		{ "keep-failures", no_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct ct_opts o = {
		.log_limit = 256ULL << 20, .states = 4, .seed = 1, .jobs = 1,
		.first = 0, .last = UINT64_MAX,
	};
	char src[64], dev[64], env_dev[ROOT_MAX + 80], env_disk[128];
	char name[96];
	char *env[] = { env_dev, env_disk, NULL };
	struct sigaction sa = { .sa_handler = ct_on_signal };
	struct sigaction old_sa[ARRAY_SIZE(ct_sigs)], old_pipe, old_chld;
	struct ct_epoch *epochs = NULL;
	struct ct_state *states = NULL;
	size_t nepochs = 0, nstates = 0, failed = 0, i;
	bool made = false, kept = false;
	double secs = 0;
	int opt, ret;

	while ((opt = next_opt("crash-test", argc, argv, ":s:j:kJh",
			       longopts)) != -1) {
		switch (opt) {
		case 's':
		case 'l':
			if (parse_size(optarg, opt == 's' ? &o.size : &o.log_limit))
				return usage_error("crash-test", "invalid size '%s'",
						   optarg);
			if (!(opt == 's' ? o.size : o.log_limit))
				return usage_error("crash-test", "invalid --%s '%s': must be above 0",
						   opt == 's' ? "size" : "log-limit",
						   optarg);
			break;
		case 'm':
			o.mkfs = optarg;
			break;
		case 'S':
			o.setup = optarg;
			break;
		case 'r':
			o.run = optarg;
			break;
		case 'c':
			o.check = optarg;
			break;
		case 'n':
			if (parse_uint(optarg, CT_MAX_STATES, &o.states))
				return usage_error("crash-test", "invalid --states '%s': 0 to %d",
						   optarg, CT_MAX_STATES);
			break;
		case 'e':
			if (parse_uint(optarg, UINT64_MAX, &o.seed))
				return usage_error("crash-test", "invalid --seed '%s'",
						   optarg);
			break;
		case 'E':
			if (ct_parse_epochs(optarg, &o))
				return usage_error("crash-test", "invalid --epochs '%s': A-B, A- or A, A <= B",
						   optarg);
			break;
		case 'j':
			if (parse_uint(optarg, CT_MAX_JOBS, &o.jobs) || !o.jobs)
				return usage_error("crash-test", "invalid --jobs '%s': 1 to %d",
						   optarg, CT_MAX_JOBS);
			break;
		case 'k':
			o.keep = true;
			break;
		case 'J':
			o.json = true;
			break;
		case 'h':
			fputs(usage_crash_test, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error("crash-test", "unexpected argument '%s'",
				   argv[optind]);
	if (!o.size || !o.run || !o.check)
		return usage_error("crash-test", "missing --%s",
				   !o.size ? "size" : !o.run ? "run" : "check");
	ret = check_module();
	if (ret)
		return ret;
	if (!is_dir(cfs_root))
		return errorf(SBDCTL_EXIT_NOMOD,
			      "%s is missing: mount configfs (mount -t configfs none /sys/kernel/config)",
			      cfs_root);

	/*
	 * A ^C ends the commands and then removes every disk made; so does a
	 * closed pipe on stdout (the write fails instead); and the children
	 * must be waitable whatever the caller did with SIGCHLD.
	 */
	for (i = 0; i < ARRAY_SIZE(ct_sigs); i++)
		sigaction(ct_sigs[i], &sa, &old_sa[i]);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, &old_chld);

	snprintf(src, sizeof(src), "crash-test-%d", (int)getpid());
	ret = make_item(src, true);
	if (ret)
		goto out;
	made = true;
	if (!item_has(src, "crash_image")) {
		ret = errorf(SBDCTL_EXIT_FAIL,
			     "the loaded sbd module has no crash testing (no crash_image attribute)");
		goto out;
	}
	ret = set_attr_u64(src, "size", o.size);
	if (!ret)
		ret = set_attr(src, "cache", "1");
	if (!ret)
		ret = set_attr_u64(src, "seed", o.seed);
	if (!ret)
		ret = set_attr(src, "power", "1");
	if (!ret)
		ret = ct_device(src, dev, sizeof(dev));
	if (ret)
		goto out;
	snprintf(env_dev, sizeof(env_dev), "SBD_DEV=%s/%s", dev_dir, dev);
	snprintf(env_disk, sizeof(env_disk), "SBD_DISK=%s", src);

	if (o.mkfs)
		ret = ct_command("mkfs", o.mkfs, env);
	if (!ret && o.setup)
		ret = ct_command("setup", o.setup, env);
	/* the baseline: what mkfs and setup left, durable */
	if (!ret)
		ret = set_attr_u64(src, "log_limit", o.log_limit);
	if (!ret)
		ret = set_attr(src, "snapshot", "1");
	if (!ret)
		ret = ct_command("run", o.run, env);
	if (!ret)
		ret = ct_read_log(src, &o, &epochs, &nepochs);
	if (ret)
		goto out;
	if (!nepochs) {
		ret = errorf(SBDCTL_EXIT_FAIL, "no epoch of the log is in --epochs");
		goto out;
	}
	states = ct_list_states(epochs, nepochs, o.states, &nstates);
	if (!states) {
		ret = errorf(SBDCTL_EXIT_FAIL,
			     "more than %d states: narrow --epochs or --states",
			     CT_MAX_TOTAL);
		goto out;
	}
	failed = ct_check_all(&o, src, epochs, nepochs, states, nstates, &ret,
			      &secs);
	if (!ret) {
		kept = o.keep && failed;
		ct_summary(&o, src, kept, epochs, nepochs, states, nstates,
			   failed, secs);
		ret = failed ? SBDCTL_EXIT_FAIL : SBDCTL_EXIT_OK;
	}
out:
	for (i = 0; i < nstates; i++) {
		/* kept failing states go too when there is no summary */
		if (states[i].kept && !kept) {
			snprintf(name, sizeof(name), "%.60s-%zu", src, i);
			ct_remove(name);
		}
		free(states[i].out);
	}
	free(states);
	free(epochs);
	if (made && !kept)
		ct_remove(src);
	fflush(stdout);
	for (i = 0; i < ARRAY_SIZE(ct_sigs); i++)
		sigaction(ct_sigs[i], &old_sa[i], NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	return ret;
}
