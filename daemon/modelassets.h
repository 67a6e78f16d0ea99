/*
 * The files an inline model carries (InlineModel.assets): meshes,
 * textures, height fields, skins and included MJCF files that a client
 * sends with its model, for MuJoCo to read from memory (its VFS) rather
 * than from the disk.
 *
 * MuJoCo 2.2.2 keeps a VFS file under its name without the directory
 * (what follows the last '/' or '\'), its letters A-Z lowered, and looks
 * a file up the same way: every name the model gives whose last part is
 * "hand.stl" in any case reads the file sent as "meshes/Hand.STL", and
 * nothing of it from the disk.  That last part, lowered, is the asset's
 * key here: two assets of one key are one file to MuJoCo, and refused.
 *
 * The rules for a name: not empty, at most MODELASSETS_NAME_MAX bytes, no
 * control character, not absolute as MuJoCo tells one (a leading '/' or
 * '\', or ":/" or ":\" anywhere), no ".." part, a file name after its
 * last separator.  A name cannot hold a NUL: protobuf-c hands the daemon
 * C strings, so a NUL ends the name there, and the shorter name is what
 * every rule and MuJoCo see.  An asset is not empty: MuJoCo takes a VFS
 * file without data for one not there, and would read the disk instead.
 */
#ifndef HXD_MODELASSETS_H
#define HXD_MODELASSETS_H

#include <stddef.h>
#include <stdint.h>

/* Most assets one model carries (MuJoCo's VFS holds 2000 files). */
#define MODELASSETS_MAX 1000

/* Most bytes of a name (MuJoCo's mjMAXVFSNAME, 1000, with the NUL). */
#define MODELASSETS_NAME_MAX 999

/* One file: its name as the model writes it, and its bytes. */
struct model_asset {
	const char *name;
	const void *data;
	size_t len;
};

/*
 * The key MuJoCo's VFS files name under: its last part, A-Z lowered,
 * into key (len bytes).  Returns 0, or -1 when that part is empty or
 * longer than MODELASSETS_NAME_MAX.
 */
int modelassets_key(const char *name, char *key, size_t len);

/*
 * Check n assets for a model that stands under the file name model_file
 * (the loader's "inline.xml": an asset may not take its key).  Returns
 * 0, or RESULT_BADSIZE (too many, one empty) or RESULT_BADVALUE (a name
 * against the rules, two of one key) with err naming the asset.
 */
int modelassets_check(const struct model_asset *a, size_t n,
    const char *model_file, char *err, size_t len);

/*
 * The asset MuJoCo's VFS gives for a name the model writes (or that name
 * resolved against a directory: only its last part counts), or NULL.
 */
const struct model_asset *modelassets_find(
    const struct model_asset *a, size_t n, const char *name);

/*
 * n assets packed as they travel to the loader and stay beside the
 * model's text (modeltext.h): each a record of its name's length with
 * its NUL (uint32), 4 bytes of zero, its data's length (uint64), the
 * name, the data.  Returns the block (caller frees), *len its size.
 */
void *modelassets_pack(const struct model_asset *a, size_t n, size_t *len);

/*
 * Read n assets from a packed block of len bytes: *out (caller frees)
 * points into it.  Returns 0, or -1 with err saying where it is broken.
 */
int modelassets_unpack(const void *block, size_t len, size_t n,
    struct model_asset **out, char *err, size_t errlen);

/*
 * mjcf_include_all_vfs()'s reader (mjcf.h): the asset of name among the
 * assets of arg (a struct model_assets), or 0 for none.
 */
struct model_assets {
	const struct model_asset *v;
	size_t n;
};
int modelassets_read(
    void *arg, const char *name, const void **data, size_t *len);

#endif
