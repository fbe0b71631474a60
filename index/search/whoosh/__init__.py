"""The Whoosh engine (the default, pure Python): its index and schema (`index`), the plan
compiler (`engine`), and the fast paths through Whoosh's codec, the bulk segment writer
(`segments`, `terms_file`, `postings`) and the scorer (`scorer`), with the check of the
private names of Whoosh they rely on (`private`)."""
