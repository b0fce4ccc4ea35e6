package io.tern.engine.workflow.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.state.PartitionState;
import io.tern.engine.state.StateConfig;
import io.tern.engine.state.StateResources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scopes are skipped when they hold nothing, and still cleaned completely when they do. */
class ScopeMarkersTest {
  @TempDir Path dir;

  @Test
  void variablesOfAScopeGoWithItAndOtherScopesKeepTheirs() {
    try (StateResources resources = new StateResources(StateConfig.defaults());
        PartitionState state = new PartitionState(dir, resources)) {
      VariableState variables = new VariableState(state);
      variables.put(1, "a", json("1"));
      variables.put(1, "b", json("2"));
      variables.put(2, "a", json("3"));
      assertThat(variables.ofScope(1)).containsOnlyKeys("a", "b");
      assertThat(variables.ofScope(3)).isEmpty();

      variables.removeScope(1);
      variables.removeScope(3); // never held a variable: nothing to do
      assertThat(variables.ofScope(1)).isEmpty();
      assertThat(variables.has(1, "a")).isFalse();
      assertThat(variables.ofScope(2)).containsOnlyKeys("a");

      variables.put(1, "c", json("4")); // a key reused as a scope is marked again
      assertThat(variables.ofScope(1)).containsOnlyKeys("c");
      variables.removeScope(1);
      assertThat(variables.has(1, "c")).isFalse();
    }
  }

  @Test
  void waitingTokensOfAScopeGoWithItEvenAfterJoinsEmptiedSomeFlows() {
    try (StateResources resources = new StateResources(StateConfig.defaults());
        PartitionState state = new PartitionState(dir, resources)) {
      TakenFlowState taken = new TakenFlowState(state);
      taken.add(7, "join", "f1", 2);
      taken.add(7, "join", "f2", 1);
      taken.add(7, "join", "f2", -1); // joined
      taken.add(8, "join", "f1", 1);
      taken.removeScope(7);
      taken.removeScope(9);
      assertThat(taken.count(7, "join", "f1")).isZero();
      assertThat(taken.count(8, "join", "f1")).isEqualTo(1);
      taken.add(7, "join", "f1", 1);
      assertThat(taken.count(7, "join", "f1")).isEqualTo(1);
      taken.removeScope(7);
      assertThat(taken.count(7, "join", "f1")).isZero();
    }
  }

  private static byte[] json(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
