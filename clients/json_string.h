/*
 * A C string as a quoted JSON string, for the programs that write JSON
 * to a stdio stream (hxplay's exports, hxview's pages).
 */
#ifndef HX_JSON_STRING_H
#define HX_JSON_STRING_H

#include <stdio.h>

/* s quoted into fp: " and \ escaped, control characters as \uXXXX. */
void json_string(FILE *fp, const char *s);

#endif
