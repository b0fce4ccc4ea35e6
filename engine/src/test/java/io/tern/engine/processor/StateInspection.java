package io.tern.engine.processor;

import io.tern.engine.state.PartitionState;
import java.util.function.Consumer;

/** Lets tests in other packages read a processor's state on its thread. */
public final class StateInspection {
  private StateInspection() {}

  public static void onProcessorThread(StreamProcessor processor, Consumer<PartitionState> reader) {
    processor.execute(() -> reader.accept(processor.currentState()));
  }
}
