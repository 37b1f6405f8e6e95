/* yamlout.c: see yamlout.h. */
#include "yamlout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int write_file(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, (FILE *)data) == size;
}

int yamlout_open(struct yamlout *y, FILE *f)
{
	yaml_event_t ev;
	memset(y, 0, sizeof(*y));
	if (!yaml_emitter_initialize(&y->em))
		return -1;
	yaml_emitter_set_output(&y->em, write_file, f);
	yaml_emitter_set_unicode(&y->em, 1);
	yaml_emitter_set_width(&y->em, 100);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	y->failed |= !yaml_emitter_emit(&y->em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	y->failed |= !yaml_emitter_emit(&y->em, &ev);
	return y->failed ? -1 : 0;
}

int yamlout_finish(struct yamlout *y)
{
	yaml_event_t ev;
	yaml_document_end_event_initialize(&ev, 1);
	y->failed |= !y->failed && !yaml_emitter_emit(&y->em, &ev);
	yaml_stream_end_event_initialize(&ev);
	y->failed |= !y->failed && !yaml_emitter_emit(&y->em, &ev);
	y->failed |= !y->failed && !yaml_emitter_flush(&y->em);
	yaml_emitter_delete(&y->em);
	return y->failed ? -1 : 0;
}

static void emit(struct yamlout *y, yaml_event_t *ev)
{
	if (y->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&y->em, ev))
		y->failed = 1;
}

void yo_map(struct yamlout *y, int flow)
{
	yaml_event_t ev;
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	emit(y, &ev);
}

void yo_map_end(struct yamlout *y)
{
	yaml_event_t ev;
	yaml_mapping_end_event_initialize(&ev);
	emit(y, &ev);
}

void yo_seq(struct yamlout *y, int flow)
{
	yaml_event_t ev;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	emit(y, &ev);
}

void yo_seq_end(struct yamlout *y)
{
	yaml_event_t ev;
	yaml_sequence_end_event_initialize(&ev);
	emit(y, &ev);
}

static void scalar(struct yamlout *y, const char *s, int plain_ok, int quoted_ok,
		   yaml_scalar_style_t style)
{
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
				     plain_ok, quoted_ok, style);
	emit(y, &ev);
}

void yo_str(struct yamlout *y, const char *s)
{
	if (!s) {
		yo_null(y);
		return;
	}
	/* Plain when safe; the emitter picks quotes when the text needs them.
	 * Words YAML would read as numbers, booleans or null are quoted. */
	char *end;
	int looks_typed = !*s || !strcmp(s, "~") || !strcasecmp(s, "null") ||
		!strcasecmp(s, "true") || !strcasecmp(s, "false") ||
		!strcasecmp(s, "yes") || !strcasecmp(s, "no") ||
		!strcasecmp(s, "on") || !strcasecmp(s, "off") ||
		(strtod(s, &end), end != s && *end == '\0');
	scalar(y, s, !looks_typed, 1, looks_typed ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
}

void yo_literal(struct yamlout *y, const char *s)
{
	if (!s) {
		yo_null(y);
		return;
	}
	scalar(y, s, 0, 1, YAML_LITERAL_SCALAR_STYLE);
}

void yo_plain(struct yamlout *y, const char *s) { scalar(y, s, 1, 0, YAML_PLAIN_SCALAR_STYLE); }

void yo_int(struct yamlout *y, long long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", v);
	yo_plain(y, buf);
}

void yo_u64(struct yamlout *y, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	yo_plain(y, buf);
}

const char *format_double(double v, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, ".nan");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, v > 0 ? ".inf" : "-.inf");
		return buf;
	}
	/* Whole numbers (byte counts, FLOPs) print whole: 206000000, not 2.06e+08. */
	if (v == floor(v) && fabs(v) < 1e17) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

void yo_double(struct yamlout *y, double v)
{
	char buf[40];
	yo_plain(y, format_double(v, buf, sizeof(buf)));
}

void yo_bool(struct yamlout *y, int v) { yo_plain(y, v ? "true" : "false"); }
void yo_null(struct yamlout *y) { yo_plain(y, "~"); }
