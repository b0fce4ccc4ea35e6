-- Fewer index entries per exported record (issue 47, docs/benchmarks/2026-12-07-exporters.md).
-- One script for H2 and PostgreSQL. No semicolons in comments: the search tests split the script
-- at them.
--
-- variable_history's (scope_key, name, position) index served no query of Tern's: the REST
-- searches do not read variable_history, and retention deletes an instance's entries by the
-- (process_instance_key) index, which stays. Each VARIABLE record paid an entry in it (and the
-- commit's walk over that entry). A variable's changes are still found by that index: the
-- instance's entries, then the scope and name.
DROP INDEX variable_history_variable;
