/*
 * The loader: the process that parses, compiles and checks a model, so
 * that nothing a model file holds runs in the daemon.
 *
 * The daemon starts it by running its own executable again with
 * LOADER_ARG (loadjob.c), the request on its standard input, and reads
 * the answer: a loader_result and, on success, the model as MuJoCo's MJB.
 * The answer is written in shared memory the daemon gives it (a memfd,
 * LOADER_ANSWER_FD) and sealed there before the loader closes its
 * standard output; an answer it cannot put there goes on standard output
 * instead.  The loader closes every other descriptor, takes the limits
 * of the request (address space, CPU time, no files written, no new
 * processes or sockets) before it reads any of the model, and exits.
 * Both ends are the same build: the structs travel as they are in memory.
 */
#ifndef HXD_LOADER_H
#define HXD_LOADER_H

#include <stdint.h>

#include "sim.h"
#include "sim_check.h"

/* The argument that makes haptixd the loader (argv[1]). */
#define LOADER_ARG "--loader-process"

#define LOADER_MAGIC 0x6878646cu /* "hxdl" */

/*
 * The loader's answer memory: a memfd that allows sealing, sized to the
 * last answer (a spare faults it in while it waits), which the loader
 * sizes to its answer, writes, and seals against writes, growing and
 * shrinking.
 */
#define LOADER_ANSWER_FD 3

/* What a load may use, and what its model may declare. */
struct loader_limits {
	double seconds;  /* CPU and wall-clock time of one load */
	uint64_t memory; /* bytes of the loader's address space */
	struct sim_limits model;
};

enum loader_source {
	LOADER_FILE,   /* path: a file inside the model directories */
	LOADER_INLINE, /* data: a model sent by a client */
	LOADER_EDIT,   /* data: the model's MJCF text, then the edit; path:
			  where the text stands (docs/editing.md) */
};

/*
 * The request, followed by path_len bytes of the file's path, dirs_len
 * bytes of the model directories (each ended by a NUL), data_len bytes
 * of the inline model (or the MJCF text to edit), edit_len bytes of
 * the edit (an EditModel message of the protocol) and assets_len bytes
 * of the nassets files the model carries (LOADER_INLINE, LOADER_EDIT;
 * modelassets_pack's records), which MuJoCo reads from memory.
 */
struct loader_request {
	uint32_t magic;
	uint32_t source; /* enum loader_source */
	uint32_t format; /* enum sim_format, for LOADER_INLINE */
	uint32_t legacy; /* translate HAPTIX 1.x MJCF */
	struct loader_limits limits;
	uint32_t path_len, dirs_len;
	uint64_t data_len, edit_len;
	uint64_t assets_len;
	uint32_t nassets, spare;
};

/*
 * The answer, followed by err_len bytes of the reason (when code is not
 * 0), mjb_len bytes of the model, xml_len bytes of its MJCF text,
 * includes inlined (0 for URDF and MJB models), dir_len bytes of the
 * directory that text stands in, and info_len bytes of what an edit
 * removed ("type name" lines).
 */
struct loader_result {
	uint32_t magic;
	int32_t code; /* 0, or a result code */
	uint32_t err_len;
	uint32_t legacy; /* the legacy translation was applied */
	uint64_t mjb_len;
	uint64_t xml_len;
	uint32_t dir_len, info_len;
};

/* What a successful load hands back besides the MJB (loader_work). */
struct loader_text {
	char *xml; /* the MJCF text, or NULL */
	size_t xml_len;
	char dir[4096]; /* where it stands */
	char *info;     /* what an edit removed, or NULL */
	size_t info_len;
};

/*
 * The file name a model sent inline stands under for MuJoCo, in a model
 * directory: "inline.xml", or "inline.urdf" for URDF.
 */
const char *loader_standin(enum sim_format fmt);

/* Most a request's inline model may be: a frame's limit bounds it. */
#define LOADER_MAX_DATA (UINT64_C(4) << 30)

/*
 * The loader's main: read the request on stdin, enter the sandbox, and
 * answer on stdout.  Returns the exit status.
 */
int loader_main(void);

/* Write all of buf to fd.  Returns 0, or -1 (errno says why). */
int loader_write_all(int fd, const void *buf, size_t size);

/*
 * Read a request from fd: its head, and path, dirs, data and the assets
 * each in a NUL-ended buffer the caller frees (also on failure).
 * Returns 0, or -1 with err saying why.
 */
int loader_read_request(int fd, struct loader_request *r, char **path,
    char **dirs, char **data, char **assets, char *err, size_t len);

/*
 * The loader's work for request r (path, data and the assets as they
 * follow it), in the calling process and outside any sandbox, with the
 * model directories it has: the answer, a loader_result and what
 * follows, in a buffer the caller frees; *len its size.  loader_main()
 * calls it; so does the fuzzer, through loadjob_inprocess(), to see what
 * a model does to MuJoCo.
 */
void *loader_work(const struct loader_request *r, const char *path,
    const void *data, const void *assets, size_t *len);

#endif
