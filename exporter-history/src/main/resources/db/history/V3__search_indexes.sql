-- Indexes the REST searches read a page from, not every matching row (issue 48, measured in
-- docs/benchmarks/2026-12-07-search.md). One script for H2 and PostgreSQL. No semicolons in
-- comments: the search tests split the script at them.
--
-- Newest first: the two start-date indexes of V1 become descending, with the key (the searches'
-- last sort term) after the start. PostgreSQL then reads "a process's active instances, newest
-- first" as the index's first entries and H2 does too (the search puts the filter's fixed columns
-- first in its ORDER BY, as H2 reads an index in order only for an ORDER BY that starts with its
-- first columns). Ranges of start dates read either order. Replaced, not added: the exporter
-- keeps as many indexes of instances up to date as before.
DROP INDEX process_instance_bpmn_process_id;
CREATE INDEX process_instance_process_newest
  ON process_instance (bpmn_process_id, state, start_date DESC NULLS FIRST, process_instance_key);
DROP INDEX process_instance_state;
CREATE INDEX process_instance_state_newest
  ON process_instance (state, start_date DESC NULLS FIRST, process_instance_key);

-- Instances with incidents (hasIncident, the search saying "incident_count > 0"), by state: a
-- thousandth of the instances, otherwise found by reading every instance of the state. State
-- first as H2 estimates an equality on it as far cheaper than a range, and would pick the state
-- index over an index on the count alone.
CREATE INDEX process_instance_incident ON process_instance (state, incident_count);
