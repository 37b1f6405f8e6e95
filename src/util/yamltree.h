/* yamltree.h: a small YAML tree with source positions, built on libyaml's
 * event parser.
 *
 * Why not yaml_parser_load(): we need (1) a refusal of aliases before they
 * can be expanded (alias bombs), (2) a depth limit, (3) the positions of every
 * node for file:line:col messages, and (4) the part of a document that was
 * read before a syntax error or a cut, so that a results file killed
 * mid-record still yields its finished records.  Every node says whether its
 * end was seen (`complete`).
 *
 * Strings in nodes are owned by the tree; ytree_release() frees them all.
 */
#ifndef ATTNPROF_YAMLTREE_H
#define ATTNPROF_YAMLTREE_H

#include <stddef.h>

enum ynode_kind { Y_SCALAR, Y_SEQ, Y_MAP };

struct ynode {
	enum ynode_kind kind;
	int line, col;        /* 1-based position of the node's start */
	int complete;         /* its end event was seen */
	int quoted;           /* scalar was quoted (so "true" is a string) */
	char *scalar;         /* Y_SCALAR: the value, NUL-terminated */
	size_t n;             /* Y_SEQ: items; Y_MAP: pairs */
	struct ynode **items; /* Y_SEQ: items[n]; Y_MAP: values[n] */
	struct ynode **keys;  /* Y_MAP: keys[n], always scalars */
};

struct ytree_limits {
	size_t max_bytes;  /* input larger than this is refused */
	int max_depth;     /* nesting deeper than this is refused */
	size_t max_nodes;  /* more nodes than this are refused */
};

struct ytree {
	const char *filename; /* for messages; not owned */
	struct ynode *root;   /* NULL if nothing was parsed */
	/* Set when parsing stopped early; root then holds what came before. */
	int truncated;
	char problem[512];    /* "file:line:col: what" of the stop, or "" */
	size_t problem_offset; /* byte offset of the stop */
	int refused;          /* the stop was a refusal (alias, depth, size, binary,
			       * second document), not a syntax error or a cut */
	size_t nnodes;
};

/* Defaults: 1 MiB, depth 32, 100000 nodes (specs and templates). */
extern const struct ytree_limits ytree_spec_limits;
/* Results files: 512 MiB, depth 32, 50 M nodes. */
extern const struct ytree_limits ytree_results_limits;

/*
 * Parse one YAML document.  Returns 0 when the whole document was read,
 * -1 otherwise; on -1 t->problem says what and where, and when
 * allow_partial is set t->root keeps the nodes read before the stop.
 * Aliases, multiple documents, binary (NUL) bytes and non-scalar keys are
 * refused.
 */
int ytree_parse(struct ytree *t, const char *text, size_t len,
		const char *filename, const struct ytree_limits *lim,
		int allow_partial);
void ytree_release(struct ytree *t);

/* Map lookup: the value for key, or NULL. */
struct ynode *ynode_get(const struct ynode *map, const char *key);
/* "file:line:col" of a node into buf. */
const char *ynode_where(const struct ytree *t, const struct ynode *n,
			char *buf, size_t len);

/*
 * Scalar conversions.  Each returns 0 on success; on failure it calls
 * error() with "file:line:col: <what> must be ..." and returns -1.
 */
int ynode_int(const struct ytree *t, const struct ynode *n, const char *what,
	      long long *out);
int ynode_u64(const struct ytree *t, const struct ynode *n, const char *what,
	      unsigned long long *out);
int ynode_double(const struct ytree *t, const struct ynode *n,
		 const char *what, double *out);
int ynode_bool(const struct ytree *t, const struct ynode *n, const char *what,
	       int *out);
int ynode_string(const struct ytree *t, const struct ynode *n,
		 const char *what, const char **out);

/* Levenshtein distance, for "did you mean" suggestions. */
int edit_distance(const char *a, const char *b);
/* The nearest of cands[0..n) to word, or NULL if none is close. */
const char *nearest_word(const char *word, const char *const *cands, size_t n);

#endif
