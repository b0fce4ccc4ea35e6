package io.tern.engine.workflow.feel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.camunda.feel.api.EvaluationResult;
import org.camunda.feel.api.FeelEngineApi;
import org.junit.jupiter.api.Test;

/**
 * FEEL evaluations are metered in steps: expressions built to hold the processor or fill its heap
 * stop at once, everyday ones run as before, and the same expression always takes the same steps.
 */
class FeelBudgetTest {
  private static final FeelEngineApi FEEL = FeelBudget.newEngine();

  private static Object evaluate(String expression, long maxSteps) {
    EvaluationResult result = FeelBudget.evaluate(FEEL, expression, Map.of(), maxSteps);
    assertThat(result.isSuccess()).as("%s", result).isTrue();
    return result.result();
  }

  @Test
  void aRangeOfThreeHundredMillionNumbersIsStoppedBeforeItIsBuilt() {
    long startNs = System.nanoTime();
    assertThatThrownBy(() -> evaluate("string(count(for x in 1..300000000 return x))", 1_000_000))
        .isInstanceOf(FeelBudget.ExceededException.class)
        .hasMessageContaining("more than 1000000 evaluation steps")
        .hasMessageContaining("the range 1..300000000")
        .hasMessageContaining("the budget of one FEEL evaluation");
    assertThat(System.nanoTime() - startNs).isLessThan(1_000_000_000L);
  }

  @Test
  void theCombinationsOfSeveralIteratorsAreCountedBeforeTheyAreBuilt() {
    // Three lists of 200 items: small alone, 8,000,000 combinations built before any body runs.
    List<Integer> items = IntStream.range(0, 200).boxed().toList();
    assertThatThrownBy(
            () ->
                FeelBudget.evaluate(
                    FEEL,
                    "count(for a in l, b in l, c in l return 1)",
                    Map.of("l", items),
                    1_000_000))
        .isInstanceOf(FeelBudget.ExceededException.class)
        .hasMessageContaining("the combinations of a loop's iterators");
    assertThatThrownBy(
            () -> evaluate("some a in 1..3000, b in 1..a satisfies a + b < 0", 1_000_000))
        .isInstanceOf(FeelBudget.ExceededException.class);
  }

  @Test
  void aStringDoubledOverAndOverIsStopped() {
    assertThatThrownBy(
            () ->
                evaluate(
                    "for i in 1..40 return if i = 1 then \"xxxxxxxxxxxxxxxx\""
                        + " else partial[-1] + partial[-1]",
                    1_000_000))
        .isInstanceOf(FeelBudget.ExceededException.class)
        .hasMessageContaining("a string's length");
  }

  @Test
  void aListDoubledOverAndOverIsStopped() {
    assertThatThrownBy(
            () ->
                evaluate(
                    "for i in 1..40 return if i = 1 then [1, 2] else"
                        + " concatenate(partial[-1], partial[-1])",
                    1_000_000))
        .isInstanceOf(FeelBudget.ExceededException.class)
        .hasMessageContaining("a list's items");
  }

  @Test
  void deepNestingIsStoppedBeforeTheStackOverflows() {
    // Parses (the parser takes some 800 levels of this), but would overflow while evaluated.
    String nested = "if true then ".repeat(300) + "1" + " else 0".repeat(300);
    assertThatThrownBy(() -> evaluate(nested, 1_000_000))
        .isInstanceOf(FeelBudget.ExceededException.class)
        .hasMessageContaining("nests deeper than " + FeelBudget.MAX_DEPTH);
  }

  @Test
  void everydayExpressionsRunAsBeforeAndTakeTheSameStepsEveryTime() {
    assertThat(evaluate("sum(for x in 1..10000 return x * 2)", 1_000_000)).isEqualTo(100010000L);
    assertThat(evaluate("string join([\"a\", \"b\"], \"-\")", 100)).isEqualTo("a-b");
    // Deterministic: a budget one step short fails every time, one enough passes every time.
    long needed = stepsOf("sum(for x in 1..100 return x)");
    for (int i = 0; i < 3; i++) {
      assertThat(stepsOf("sum(for x in 1..100 return x)")).isEqualTo(needed);
    }
  }

  @Test
  void withoutABudgetTheEngineIsThePlainOne() {
    assertThat(FEEL.evaluateExpression("count(for x in 1..1000 return x)", Map.of()).result())
        .isEqualTo(1000L);
  }

  /** The fewest steps {@code expression} evaluates in. */
  private static long stepsOf(String expression) {
    long low = 1;
    long high = 1_000_000;
    while (low < high) {
      long mid = (low + high) / 2;
      try {
        FeelBudget.evaluate(FEEL, expression, Map.of(), mid);
        high = mid;
      } catch (FeelBudget.ExceededException e) {
        low = mid + 1;
      }
    }
    return low;
  }
}
