/*
 * The calls this daemon answers (api_calls.h) as the table that
 * dispatch serves.  Adding a call: docs/adding-a-call.md.
 */
#ifndef HXD_API_TABLE_H
#define HXD_API_TABLE_H

/* Hand the call table to dispatch; before the first client. */
void api_table_serve(void);

#endif
