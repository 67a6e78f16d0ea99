/*
 * The calls this daemon answers: the table of api_table.c, handed to
 * dispatch.  Adding a call adds a row there (docs/adding-a-call.md).
 */
#ifndef HXD_API_TABLE_H
#define HXD_API_TABLE_H

/* Hand the call table to dispatch; before the first client. */
void api_table_serve(void);

#endif
