package io.tern.engine.workflow.feel;

/**
 * A variable mapping: its source (FEEL after a leading '=', else static text) and its target (a
 * variable name, or a path into one: {@code order.total}). Here, beside {@link IoMappings} which
 * evaluates it, so that FEEL needs nothing of the model that uses it.
 */
public record Mapping(String source, String target) {}
