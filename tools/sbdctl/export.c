// SPDX-License-Identifier: GPL-2.0
/*
 * sbdctl export / unexport: serves an sbd disk over NVMe/TCP through the
 * kernel's own target, nvmet, set up in its configfs tree
 * (/sys/kernel/config/nvmet, SBDCTL_NVMET for the tests):
 *
 *   hosts/HOSTNQN/                 one per --host, made when missing
 *   subsystems/NQN/                one per disk, NQN made from its uuid
 *     attr_allow_any_host, attr_serial, attr_model
 *     allowed_hosts/HOSTNQN        -> hosts/HOSTNQN
 *     namespaces/1/                device_path, device_uuid, device_nguid,
 *                                  enable
 *   ports/ID/                      addr_trtype, addr_adrfam, addr_traddr,
 *     subsystems/NQN               addr_trsvcid; -> subsystems/NQN
 *
 * nvmet wants them made in this order and removed in the reverse one (a
 * subsystem linked from a port or a host linked from a subsystem cannot
 * be removed).  A port that already serves the address is shared.  The
 * port and host entries sbdctl made are recorded under /run/sbd/made
 * (SBDCTL_RUN moves /run/sbd), so that unexport removes those, once
 * unused, and nothing another tool or an administrator made.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbdctl.h"

#define NQN_PREFIX	"nqn.2014-08.org.nvmexpress:uuid:"
#define NQN_MAX		223	/* NVMF_NQN_SIZE less its NUL */
#define MAX_HOSTS	16
#define DEFAULT_ADDR	"127.0.0.1"
#define DEFAULT_PORT	"4420"

static const char usage_export[] =
"Usage: sbdctl export DEV (--host HOSTNQN... | --any-host) [OPTIONS]\n"
"\n"
"Serves the disk over NVMe/TCP with the kernel's target (nvmet, loaded when\n"
"needed) and prints the nvme commands a host runs to use it: 'nvme discover'\n"
"and one 'nvme connect' per host.  The subsystem's NQN is made from the\n"
"disk's uuid, which is also the namespace's uuid and NGUID: exported again,\n"
"the disk is the same disk to its hosts.  A port that already serves the\n"
"address is shared.  On any error nothing is left.\n"
"\n"
"  -a, --addr ADDR      IPv4 or IPv6 address to serve on (default 127.0.0.1:\n"
"                       this machine only)\n"
"  -p, --port PORT      TCP port (default 4420)\n"
"  -H, --host HOSTNQN   a host that may connect (its NQN: nvme show-hostnqn);\n"
"                       up to 16; only these hosts may connect\n"
"      --any-host       let any host that reaches the address connect\n"
"      --auth           DH-HMAC-CHAP: a new secret for each --host, which it\n"
"                       must present (needs nvmet authentication, 6.7+)\n"
"  -J, --json           an object: device, nqn, transport, address, port,\n"
"                       port-id, any-host, hosts (objects of nqn, secret),\n"
"                       discover, connect (the commands)\n"
"  -h, --help           show this help\n"
"Exit status: 0 exported, 1 refused (already exported, the port is taken...),\n"
"2 usage, 3 no sbd, nvmet or nvmet-tcp (or no authentication for --auth),\n"
"4 no DEV.\n";

static const char usage_unexport[] =
"Usage: sbdctl unexport DEV\n"
"\n"
"Stops serving the disk: its hosts lose it at once.  Removes its subsystem\n"
"and what 'sbdctl export' made for it (a port no other subsystem uses, host\n"
"entries no other subsystem allows), in the order nvmet needs.\n"
"Exit status: 0 done, 1 failed, 2 usage, 3 no module, 4 no DEV or DEV is\n"
"not exported.\n";

static char nvmet_root[ROOT_MAX + 1];
static char run_dir[ROOT_MAX + 1];

static void set_dir(char *dir, const char *env, const char *def)
{
	const char *v = getenv(env);

	if (!v || !*v || strlen(v) > ROOT_MAX)
		v = def;
	strcpy(dir, v);
}

static void roots(void)
{
	set_dir(nvmet_root, "SBDCTL_NVMET", "/sys/kernel/config/nvmet");
	set_dir(run_dir, "SBDCTL_RUN", "/run/sbd");
}

/* A path under nvmet's configfs tree. */
static void __attribute__((format(printf, 2, 3)))
nv_path(char *buf, const char *fmt, ...)
{
	int n = snprintf(buf, PATH_MAX, "%s/", nvmet_root);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + n, PATH_MAX - n, fmt, ap);
	va_end(ap);
}

/* nv_write with a message naming the attribute. */
static int nv_set(const char *path, const char *val)
{
	int ret = write_path(path, val);

	if (ret)
		return errorf(SBDCTL_EXIT_FAIL, "%s=%s: %s",
			      path + strlen(nvmet_root) + 1, val, strerror(-ret));
	return SBDCTL_EXIT_OK;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* ---- the disk -------------------------------------------------------- */

struct disk {
	int index;				/* N of sbdN */
	char dev[ROOT_MAX + 32];		/* its device node */
	char uuid[SBDCTL_UUID_LEN + 1];
	char nqn[NQN_MAX + 1];
};

static void make_nqn(const char *uuid, char *nqn, size_t len)
{
	snprintf(nqn, len, NQN_PREFIX "%s", uuid);
}

/*
 * The powered sbd disk DEV names (/dev/sbdN, sbdN or a configfs name),
 * with its uuid.  Any sbd disk can be exported, those of the module
 * parameters too.  With off_ok, a powered-off runtime disk is found too
 * (by its item's uuid): it can be unexported.
 */
static int find_disk(const char *arg, struct disk *d, bool off_ok)
{
	char path[PATH_MAX], item[SBDCTL_NAME_MAX + 1], buf[64];
	int index, ret;

	ret = lookup_disk(arg, item, &index);
	if (ret)
		return ret;
	if (index < 0) {
		/* a configfs item named by the user: powered, or not */
		item_path(path, item, "device");
		if (read_file(path, buf, sizeof(buf)))
			return errorf(SBDCTL_EXIT_NODEV, "no such sbd disk: %s",
				      arg);
		if (!buf[0] && off_ok) {
			d->index = -1;
			snprintf(d->dev, sizeof(d->dev), "%s", item);
			item_path(path, item, "uuid");
			read_uuid(path, d->uuid);
			make_nqn(d->uuid, d->nqn, sizeof(d->nqn));
			return SBDCTL_EXIT_OK;
		}
		if (!buf[0])
			return errorf(SBDCTL_EXIT_FAIL,
				      "%s is powered off: there is nothing to serve",
				      arg);
		index = sbd_index(buf);
	}
	snprintf(path, sizeof(path), "%s/block/sbd%d", sys_root, index);
	if (index < 0 || !is_dir(path))
		return errorf(SBDCTL_EXIT_NODEV, "no such sbd disk: %s", arg);
	d->index = index;
	snprintf(d->dev, sizeof(d->dev), "%s/sbd%d", dev_dir, index);
	snprintf(path, sizeof(path), "%s/block/sbd%d/sbd/uuid", sys_root,
		 index);
	read_uuid(path, d->uuid);
	if (!d->uuid[0])
		return errorf(SBDCTL_EXIT_FAIL,
			      "sbd%d has no uuid: the loaded sbd module is older than export",
			      index);
	make_nqn(d->uuid, d->nqn, sizeof(d->nqn));
	return SBDCTL_EXIT_OK;
}

/* ---- nvmet and its modules ------------------------------------------- */

/* Runs modprobe (SBDCTL_MODPROBE for the tests) quietly: its status. */
static int modprobe(const char *mod)
{
	const char *cmd = getenv("SBDCTL_MODPROBE");
	int status, fd;
	pid_t pid;

	if (!cmd || !*cmd)
		cmd = "modprobe";
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execlp(cmd, cmd, mod, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* nvmet with its TCP transport, loaded when missing. */
static int nvmet_ready(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/module/nvmet_tcp", sys_root);
	if (is_dir(nvmet_root) && is_dir(path))
		return SBDCTL_EXIT_OK;
	if (modprobe("nvmet-tcp"))
		return errorf(SBDCTL_EXIT_NOMOD,
			      "cannot load nvmet-tcp (modprobe nvmet-tcp failed): this kernel has no NVMe/TCP target (CONFIG_NVME_TARGET_TCP)");
	if (!is_dir(nvmet_root))
		return errorf(SBDCTL_EXIT_NOMOD,
			      "%s not found with nvmet loaded: is configfs mounted?",
			      nvmet_root);
	if (!is_dir(path))
		return errorf(SBDCTL_EXIT_NOMOD,
			      "nvmet-tcp is not loaded after modprobe nvmet-tcp");
	return SBDCTL_EXIT_OK;
}

/* ---- what sbdctl made: /run/sbd/made/ ------------------------------- */

/*
 * A port or host entry sbdctl made is recorded as the file
 * /run/sbd/made/port-ID or host-NQN until it is removed: unexport removes
 * such an entry once no subsystem uses it, whichever export made it, and
 * leaves every other entry alone.
 */
static void made_path(char *buf, const char *kind, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/made/%s-%s", run_dir, kind, name);
}

static int made_mark(const char *kind, const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s", run_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/made", run_dir);
	mkdir(path, 0755);
	made_path(path, kind, name);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return errorf(SBDCTL_EXIT_FAIL, "cannot write %s: %s", path,
			      strerror(errno));
	close(fd);
	return SBDCTL_EXIT_OK;
}

static bool made_has(const char *kind, const char *name)
{
	char path[PATH_MAX];

	made_path(path, kind, name);
	return exists(path);
}

static void made_drop(const char *kind, const char *name)
{
	char path[PATH_MAX];

	made_path(path, kind, name);
	unlink(path);
}

/* What one export makes, to undo it when a later step fails. */
struct made {
	unsigned int port;		/* the port's ID */
	bool port_made;			/* made by this export, not shared */
	int nhosts;
	char host[MAX_HOSTS][NQN_MAX + 1];
	bool host_made[MAX_HOSTS];
};

/* ---- ports ----------------------------------------------------------- */

/*
 * The port that serves addr:svc: 0 with its ID, -1 when there is none, an
 * exit code when one serves it with another transport.
 */
static int find_port(const char *addr, const char *svc, unsigned int *id)
{
	char path[PATH_MAX], tr[32], a[256], s[32];
	struct dirent *e;
	int ret = -1;
	DIR *dir;

	nv_path(path, "ports");
	dir = opendir(path);
	if (!dir)
		return errorf(SBDCTL_EXIT_NOMOD, "%s: %s", path, strerror(errno));
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		nv_path(path, "ports/%s/addr_traddr", e->d_name);
		if (read_file(path, a, sizeof(a)) || strcmp(a, addr))
			continue;
		nv_path(path, "ports/%s/addr_trsvcid", e->d_name);
		if (read_file(path, s, sizeof(s)) || strcmp(s, svc))
			continue;
		nv_path(path, "ports/%s/addr_trtype", e->d_name);
		if (read_file(path, tr, sizeof(tr)))
			tr[0] = '\0';
		if (strcmp(tr, "tcp")) {
			ret = errorf(SBDCTL_EXIT_FAIL,
				     "%s:%s is taken: nvmet port %s serves it over '%s'",
				     addr, svc, e->d_name, tr);
			break;
		}
		*id = strtoul(e->d_name, NULL, 10);
		ret = 0;
		break;
	}
	closedir(dir);
	return ret;
}

/* Makes a TCP port for addr:svc under the first free ID. */
static int make_port(const char *addr, const char *svc, unsigned int *id)
{
	static const char *const attrs[] = {
		"addr_trtype", "addr_adrfam", "addr_traddr", "addr_trsvcid",
	};
	const char *vals[] = {
		"tcp", strchr(addr, ':') ? "ipv6" : "ipv4", addr, svc,
	};
	char path[PATH_MAX];
	unsigned int i, n;
	int ret;

	for (n = 1; n < 65535; n++) {
		nv_path(path, "ports/%u", n);
		if (!mkdir(path, 0755))
			break;
		if (errno != EEXIST)
			return errorf(SBDCTL_EXIT_FAIL, "cannot make %s: %s",
				      path, strerror(errno));
	}
	if (n == 65535)
		return errorf(SBDCTL_EXIT_FAIL, "nvmet has no free port ID");
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		nv_path(path, "ports/%u/%s", n, attrs[i]);
		ret = nv_set(path, vals[i]);
		if (ret) {
			nv_path(path, "ports/%u", n);
			rmdir(path);
			return ret;
		}
	}
	*id = n;
	return SBDCTL_EXIT_OK;
}

/* ---- DH-HMAC-CHAP secrets -------------------------------------------- */

/* CRC-32 (IEEE 802.3, as zlib's crc32()), which the secret carries. */
static uint32_t crc32_ieee(const unsigned char *p, size_t n)
{
	uint32_t crc = 0xffffffff;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
	}
	return ~crc;
}

static void base64(const unsigned char *in, size_t n, char *out)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t v;
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		v = in[i] << 16 | in[i + 1] << 8 | in[i + 2];
		*out++ = tab[v >> 18];
		*out++ = tab[(v >> 12) & 63];
		*out++ = tab[(v >> 6) & 63];
		*out++ = tab[v & 63];
	}
	if (i < n) {
		v = in[i] << 16 | (i + 1 < n ? in[i + 1] << 8 : 0);
		*out++ = tab[v >> 18];
		*out++ = tab[(v >> 12) & 63];
		*out++ = i + 1 < n ? tab[(v >> 6) & 63] : '=';
		*out++ = '=';
	}
	*out = '\0';
}

/*
 * A new secret in the representation nvme-cli's gen-dhchap-key prints:
 * "DHHC-1:00:" base64(32 random bytes, their CRC-32 little-endian) ":".
 */
static int new_secret(char *out)
{
	unsigned char key[36];
	uint32_t crc;

	if (getrandom(key, 32, 0) != 32)
		return errorf(SBDCTL_EXIT_FAIL, "no random bytes: %s",
			      strerror(errno));
	crc = crc32_ieee(key, 32);
	key[32] = crc;
	key[33] = crc >> 8;
	key[34] = crc >> 16;
	key[35] = crc >> 24;
	strcpy(out, "DHHC-1:00:");
	base64(key, sizeof(key), out + strlen(out));
	strcat(out, ":");
	return SBDCTL_EXIT_OK;
}

/* ---- export ---------------------------------------------------------- */

struct export_opts {
	const char *addr, *svc;
	const char *host[MAX_HOSTS];
	int nhosts;
	bool any_host, auth, json;
};

/*
 * A host NQN: "nqn." and up to 223 printable characters, none of which
 * needs quoting in a path, a shell command line or JSON.
 */
static bool valid_nqn(const char *s)
{
	size_t n = strlen(s), i;

	if (strncmp(s, "nqn.", 4) || n <= 4 || n > NQN_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~' || strchr("/\\\"'`$;&|<>()*?[]{}", s[i]))
			return false;
	return true;
}

static bool valid_port(const char *s)
{
	uint64_t v;

	return !parse_uint(s, 65535, &v) && v > 0;
}

/* Removes what export made, in the reverse order; best effort. */
static void undo_export(const struct disk *d, const struct made *m,
			bool port_linked)
{
	char path[PATH_MAX], id[16];
	int i;

	if (port_linked) {
		nv_path(path, "ports/%u/subsystems/%s", m->port, d->nqn);
		unlink(path);
	}
	nv_path(path, "subsystems/%s/namespaces/1/enable", d->nqn);
	if (exists(path))
		write_path(path, "0");
	nv_path(path, "subsystems/%s/namespaces/1", d->nqn);
	rmdir(path);
	for (i = 0; i < m->nhosts; i++) {
		nv_path(path, "subsystems/%s/allowed_hosts/%s", d->nqn,
			m->host[i]);
		unlink(path);
	}
	nv_path(path, "subsystems/%s", d->nqn);
	rmdir(path);
	if (m->port_made) {
		nv_path(path, "ports/%u", m->port);
		rmdir(path);
		snprintf(id, sizeof(id), "%u", m->port);
		made_drop("port", id);
	}
	for (i = 0; i < m->nhosts; i++) {
		if (!m->host_made[i])
			continue;
		nv_path(path, "hosts/%s", m->host[i]);
		rmdir(path);
		made_drop("host", m->host[i]);
	}
}

static void print_export(const struct disk *d, const struct export_opts *o,
			 const struct made *m,
			 char secret[][64])
{
	char conn[MAX_HOSTS + 1][1024], disc[1024];
	int i, n = o->nhosts ? o->nhosts : 1;

	for (i = 0; i < n; i++) {
		int len = snprintf(conn[i], sizeof(conn[i]),
				   "nvme connect -t tcp -a %s -s %s -n %s",
				   o->addr, o->svc, d->nqn);

		if (o->nhosts)
			len += snprintf(conn[i] + len, sizeof(conn[i]) - len,
					" --hostnqn %s", o->host[i]);
		if (o->auth)
			snprintf(conn[i] + len, sizeof(conn[i]) - len,
				 " --dhchap-secret %s", secret[i]);
	}
	snprintf(disc, sizeof(disc), "nvme discover -t tcp -a %s -s %s%s%s",
		 o->addr, o->svc, o->nhosts ? " --hostnqn " : "",
		 o->nhosts ? o->host[0] : "");
	if (!o->json) {
		printf("%s exported as %s on tcp %s:%s\n", d->dev, d->nqn,
		       o->addr, o->svc);
		printf("%s\n", disc);
		for (i = 0; i < n; i++)
			printf("%s\n", conn[i]);
		return;
	}
	printf("{\"device\": \"%s\", \"nqn\": \"%s\", \"transport\": \"tcp\", ",
	       d->dev, d->nqn);
	printf("\"address\": \"%s\", \"port\": %s, \"port-id\": %u, ",
	       o->addr, o->svc, m->port);
	printf("\"any-host\": %s, \"hosts\": [", o->any_host ? "true" : "false");
	for (i = 0; i < o->nhosts; i++) {
		printf("%s{\"nqn\": \"%s\", \"secret\": ", i ? ", " : "",
		       o->host[i]);
		if (o->auth)
			printf("\"%s\"}", secret[i]);
		else
			printf("null}");
	}
	printf("], \"discover\": \"%s\", \"connect\": [", disc);
	for (i = 0; i < n; i++)
		printf("%s\"%s\"", i ? ", " : "", conn[i]);
	printf("]}\n");
}

static int do_export(const struct disk *d, const struct export_opts *o)
{
	char path[PATH_MAX], target[PATH_MAX], serial[21];
	char secret[MAX_HOSTS][64];
	struct made m = { 0 };
	bool linked = false;
	int i, j, ret;

	nv_path(path, "subsystems/%s", d->nqn);
	if (exists(path))
		return errorf(SBDCTL_EXIT_FAIL,
			      "%s is already exported as %s (sbdctl unexport first)",
			      d->dev, d->nqn);
	ret = find_port(o->addr, o->svc, &m.port);
	if (ret > 0)
		return ret;
	m.port_made = ret < 0;

	/* The hosts, with their secrets. */
	for (i = 0; i < o->nhosts; i++) {
		strcpy(m.host[i], o->host[i]);
		m.nhosts = i + 1;
		nv_path(path, "hosts/%s", o->host[i]);
		if (!exists(path)) {
			if (mkdir(path, 0755)) {
				ret = errorf(SBDCTL_EXIT_FAIL,
					     "cannot make nvmet host %s: %s",
					     o->host[i], strerror(errno));
				goto undo;
			}
			m.host_made[i] = true;
		}
		if (!o->auth)
			continue;
		nv_path(path, "hosts/%s/dhchap_key", o->host[i]);
		if (!exists(path)) {
			ret = errorf(SBDCTL_EXIT_NOMOD,
				     "--auth: this kernel's nvmet has no in-band authentication (CONFIG_NVME_TARGET_AUTH, Linux 6.7 on)");
			goto undo;
		}
		if (!m.host_made[i]) {
			ret = errorf(SBDCTL_EXIT_FAIL,
				     "--auth: nvmet host %s was made by someone else; sbdctl does not change its key",
				     o->host[i]);
			goto undo;
		}
		ret = new_secret(secret[i]);
		if (!ret)
			ret = nv_set(path, secret[i]);
		if (!ret) {
			nv_path(path, "hosts/%s/dhchap_hash", o->host[i]);
			ret = nv_set(path, "hmac(sha256)");
		}
		if (ret)
			goto undo;
	}

	/* The subsystem: who may connect, what it says it is. */
	nv_path(path, "subsystems/%s", d->nqn);
	if (mkdir(path, 0755)) {
		ret = errorf(SBDCTL_EXIT_FAIL, "cannot make nvmet subsystem %s: %s",
			     d->nqn, strerror(errno));
		goto undo;
	}
	nv_path(path, "subsystems/%s/attr_allow_any_host", d->nqn);
	ret = nv_set(path, o->any_host ? "1" : "0");
	for (i = j = 0; !ret && d->uuid[i] && j < 20; i++)
		if (d->uuid[i] != '-')
			serial[j++] = d->uuid[i];
	serial[j] = '\0';
	nv_path(path, "subsystems/%s/attr_serial", d->nqn);
	if (!ret)
		ret = nv_set(path, serial);
	nv_path(path, "subsystems/%s/attr_model", d->nqn);
	if (!ret && exists(path))
		ret = nv_set(path, "sbd");
	for (i = 0; !ret && i < o->nhosts; i++) {
		nv_path(path, "subsystems/%s/allowed_hosts/%s", d->nqn,
			o->host[i]);
		nv_path(target, "hosts/%s", o->host[i]);
		if (symlink(target, path))
			ret = errorf(SBDCTL_EXIT_FAIL,
				     "cannot allow host %s: %s", o->host[i],
				     strerror(errno));
	}
	if (ret)
		goto undo;

	/* The namespace: the disk, under its uuid. */
	nv_path(path, "subsystems/%s/namespaces/1", d->nqn);
	if (mkdir(path, 0755)) {
		ret = errorf(SBDCTL_EXIT_FAIL, "cannot make namespace 1: %s",
			     strerror(errno));
		goto undo;
	}
	nv_path(path, "subsystems/%s/namespaces/1/device_path", d->nqn);
	ret = nv_set(path, d->dev);
	nv_path(path, "subsystems/%s/namespaces/1/device_uuid", d->nqn);
	if (!ret)
		ret = nv_set(path, d->uuid);
	nv_path(path, "subsystems/%s/namespaces/1/device_nguid", d->nqn);
	if (!ret)
		ret = nv_set(path, d->uuid);
	nv_path(path, "subsystems/%s/namespaces/1/enable", d->nqn);
	if (!ret)
		ret = nv_set(path, "1");
	if (ret)
		goto undo;

	/* The port, last: from here on hosts can connect. */
	if (m.port_made) {
		ret = make_port(o->addr, o->svc, &m.port);
		if (ret) {
			m.port_made = false;
			goto undo;
		}
	}
	nv_path(path, "ports/%u/subsystems/%s", m.port, d->nqn);
	nv_path(target, "subsystems/%s", d->nqn);
	if (symlink(target, path)) {
		ret = errno == EADDRINUSE ?
			errorf(SBDCTL_EXIT_FAIL,
			       "cannot serve on %s:%s: the address is in use",
			       o->addr, o->svc) :
			errorf(SBDCTL_EXIT_FAIL,
			       "cannot serve on %s:%s (nvmet port %u): %s",
			       o->addr, o->svc, m.port, strerror(errno));
		goto undo;
	}
	linked = true;
	if (m.port_made) {
		snprintf(serial, sizeof(serial), "%u", m.port);
		ret = made_mark("port", serial);
	}
	for (i = 0; !ret && i < m.nhosts; i++)
		if (m.host_made[i])
			ret = made_mark("host", m.host[i]);
	if (ret)
		goto undo;
	if (o->any_host)
		fprintf(stderr,
			"sbdctl: warning: any host that reaches %s:%s can use %s (--any-host)\n",
			o->addr, o->svc, d->dev);
	print_export(d, o, &m, secret);
	return SBDCTL_EXIT_OK;
undo:
	undo_export(d, &m, linked);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "host", required_argument, NULL, 'H' },
		{ "any-host", no_argument, NULL, 'A' },
		{ "auth", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct export_opts o = { .addr = DEFAULT_ADDR, .svc = DEFAULT_PORT };
	sigset_t old;
	struct disk d;
	int opt, ret, i;

	while ((opt = next_opt("export", argc, argv, ":a:p:H:Jh",
			       longopts)) != -1) {
		switch (opt) {
		case 'a':
			o.addr = optarg;
			if (!*optarg || strlen(optarg) > 255 ||
			    strspn(optarg, "0123456789abcdefABCDEF.:") !=
			    strlen(optarg))
				return usage_error("export",
						   "invalid address '%s': an IPv4 or IPv6 address",
						   optarg);
			break;
		case 'p':
			if (!valid_port(optarg))
				return usage_error("export",
						   "invalid port '%s': 1 to 65535",
						   optarg);
			o.svc = optarg;
			break;
		case 'H':
			if (!valid_nqn(optarg))
				return usage_error("export",
						   "invalid host NQN '%s': 'nqn.' and up to 223 characters, no spaces, '/' or shell characters",
						   optarg);
			if (o.nhosts == MAX_HOSTS)
				return usage_error("export",
						   "at most %d --host", MAX_HOSTS);
			for (i = 0; i < o.nhosts; i++)
				if (!strcmp(o.host[i], optarg))
					return usage_error("export",
							   "host '%s' given twice",
							   optarg);
			o.host[o.nhosts++] = optarg;
			break;
		case 'A':
			o.any_host = true;
			break;
		case 'C':
			o.auth = true;
			break;
		case 'J':
			o.json = true;
			break;
		case 'h':
			fputs(usage_export, stdout);
			return SBDCTL_EXIT_OK;
		default:
			return SBDCTL_EXIT_USAGE;
		}
	}
	if (argc - optind < 1)
		return usage_error("export", "missing DEV");
	if (argc - optind > 1)
		return usage_error("export", "unexpected argument '%s'",
				   argv[optind + 1]);
	if (!o.nhosts && !o.any_host)
		return usage_error("export",
				   "name the hosts that may connect (--host HOSTNQN), or allow any (--any-host)");
	if (o.auth && !o.nhosts)
		return usage_error("export", "--auth needs --host");
	roots();
	ret = find_disk(argv[optind], &d, false);
	if (!ret)
		ret = nvmet_ready();
	if (ret)
		return ret;
	/* As create: a ^C cannot leave half an export behind. */
	hold_signals(&old);
	ret = do_export(&d, &o);
	fflush(stdout);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* ---- unexport -------------------------------------------------------- */

bool export_exists(const char *uuid, char *nqn, size_t len)
{
	char path[PATH_MAX], n[NQN_MAX + 1];

	roots();
	make_nqn(uuid, n, sizeof(n));
	if (nqn)
		snprintf(nqn, len, "%s", n);
	nv_path(path, "subsystems/%s", n);
	return uuid[0] && is_dir(path);
}

/* Whether any subsystem still allows host. */
static bool host_in_use(const char *host)
{
	char path[PATH_MAX];
	struct dirent *e;
	bool used = false;
	DIR *dir;

	nv_path(path, "subsystems");
	dir = opendir(path);
	if (!dir)
		return true;	/* cannot tell: keep it */
	while (!used && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		nv_path(path, "subsystems/%s/allowed_hosts/%s", e->d_name,
			host);
		used = exists(path);
	}
	closedir(dir);
	return used;
}

/* Whether the port still serves a subsystem. */
static bool port_in_use(unsigned int port)
{
	char path[PATH_MAX];
	struct dirent *e;
	bool used = false;
	DIR *dir;

	nv_path(path, "ports/%u/subsystems", port);
	dir = opendir(path);
	if (!dir)
		return true;
	while (!used && (e = readdir(dir)))
		used = e->d_name[0] != '.';
	closedir(dir);
	return used;
}

/* Names in directory path (links or items): a malloc'ed array, *n of them. */
static char **list_dir(const char *path, int *n)
{
	struct dirent *e;
	char **names = NULL;
	DIR *dir;

	*n = 0;
	dir = opendir(path);
	if (!dir)
		return NULL;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (*n + 1) * sizeof(*names));
		names[*n] = strdup(e->d_name);
		if (!names[*n]) {
			errorf(SBDCTL_EXIT_FAIL, "out of memory");
			exit(SBDCTL_EXIT_FAIL);
		}
		(*n)++;
	}
	closedir(dir);
	return names;
}

static void free_list(char **names, int n)
{
	while (n--)
		free(names[n]);
	free(names);
}

/* Removes path (rmdir, or unlink for a link); counts a failure. */
static void remove_entry(const char *path, bool link, int *failed)
{
	if (link ? unlink(path) : rmdir(path)) {
		errorf(0, "cannot remove %s: %s", path, strerror(errno));
		(*failed)++;
	}
}

int export_remove(const char *uuid, const char *dev)
{
	char nqn[NQN_MAX + 1], path[PATH_MAX];
	char **ports, **hosts, **nss;
	int nports, nhosts, nns, failed = 0, i;

	if (!export_exists(uuid, nqn, sizeof(nqn)))
		return errorf(SBDCTL_EXIT_NODEV, "%s is not exported", dev);

	/* Every port that serves it lets go of it: its hosts lose it here. */
	nv_path(path, "ports");
	ports = list_dir(path, &nports);
	for (i = 0; i < nports; i++) {
		nv_path(path, "ports/%s/subsystems/%s", ports[i], nqn);
		if (exists(path))
			remove_entry(path, true, &failed);
	}
	/* Then the namespaces, disabled first, the hosts' links, itself. */
	nv_path(path, "subsystems/%s/namespaces", nqn);
	nss = list_dir(path, &nns);
	for (i = 0; i < nns; i++) {
		nv_path(path, "subsystems/%s/namespaces/%s/enable", nqn, nss[i]);
		write_path(path, "0");
		nv_path(path, "subsystems/%s/namespaces/%s", nqn, nss[i]);
		remove_entry(path, false, &failed);
	}
	free_list(nss, nns);
	nv_path(path, "subsystems/%s/allowed_hosts", nqn);
	hosts = list_dir(path, &nhosts);
	for (i = 0; i < nhosts; i++) {
		nv_path(path, "subsystems/%s/allowed_hosts/%s", nqn, hosts[i]);
		remove_entry(path, true, &failed);
	}
	nv_path(path, "subsystems/%s", nqn);
	remove_entry(path, false, &failed);

	/* What sbdctl made and nothing uses any more. */
	for (i = 0; i < nports; i++) {
		unsigned int id = strtoul(ports[i], NULL, 10);

		if (!made_has("port", ports[i]) || port_in_use(id))
			continue;
		nv_path(path, "ports/%s", ports[i]);
		remove_entry(path, false, &failed);
		made_drop("port", ports[i]);
	}
	for (i = 0; i < nhosts; i++) {
		if (!made_has("host", hosts[i]) || host_in_use(hosts[i]))
			continue;
		nv_path(path, "hosts/%s", hosts[i]);
		remove_entry(path, false, &failed);
		made_drop("host", hosts[i]);
	}
	free_list(ports, nports);
	free_list(hosts, nhosts);
	return failed ? errorf(SBDCTL_EXIT_FAIL, "%s: %d nvmet entries left",
			       dev, failed) : SBDCTL_EXIT_OK;
}

int cmd_unexport(int argc, char **argv)
{
	sigset_t old;
	struct disk d;
	int ret;

	ret = help_only("unexport", usage_unexport, argc, argv);
	if (ret)
		return ret == SBDCTL_HELP_SHOWN ? SBDCTL_EXIT_OK : ret;
	if (argc - optind < 1)
		return usage_error("unexport", "missing DEV");
	if (argc - optind > 1)
		return usage_error("unexport", "unexpected argument '%s'",
				   argv[optind + 1]);
	roots();
	ret = find_disk(argv[optind], &d, true);
	if (ret)
		return ret;
	hold_signals(&old);
	ret = export_remove(d.uuid, d.dev);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
