package io.tern.engine.processor;

/** Builds the engine's processors and appliers over a (re)opened partition state. */
@FunctionalInterface
public interface RecordProcessorsFactory {
  RecordProcessors create(ProcessingContext context);
}
