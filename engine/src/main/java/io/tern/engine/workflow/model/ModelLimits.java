package io.tern.engine.workflow.model;

/**
 * What a deployed resource may hold, checked before it is parsed (see {@link ResourceScan}), so
 * that neither the XML parser nor the transformer, both of which recurse once per level, can be
 * made to overflow the processor thread's stack or hold it for long. A refusal names the limit, its
 * configuration key and the element.
 *
 * <p>Checked at deployment only: a resource already deployed is read again without this check
 * (replay, the process cache), so lowering a limit never makes a deployed process unreadable.
 *
 * @param maxNestingDepth how deep XML elements may nest, counted from the document's root (a
 *     process's flow elements are at depth 3, each embedded subprocess adds one)
 * @param maxElementsPerProcess how many elements with an id (flow nodes, sequence flows, events'
 *     definitions...) one process may hold, its subprocesses' included
 * @param maxExpressionChars how long an expression (a value starting with '=') may be
 */
public record ModelLimits(int maxNestingDepth, int maxElementsPerProcess, int maxExpressionChars) {
  /** Room for some 90 levels of embedded subprocesses; Zeebe refuses 3,000. */
  public static final int DEFAULT_MAX_NESTING_DEPTH = 100;

  /** Far more than a hand-drawn process holds, far less than can stall a partition. */
  public static final int DEFAULT_MAX_ELEMENTS_PER_PROCESS = 10_000;

  /** A FEEL expression written by hand is a few hundred characters at most. */
  public static final int DEFAULT_MAX_EXPRESSION_CHARS = 8_192;

  public static final ModelLimits DEFAULTS =
      new ModelLimits(
          DEFAULT_MAX_NESTING_DEPTH,
          DEFAULT_MAX_ELEMENTS_PER_PROCESS,
          DEFAULT_MAX_EXPRESSION_CHARS);

  public static final String NESTING_DEPTH_KEY = "processing.limits.maxNestingDepth";
  public static final String ELEMENTS_PER_PROCESS_KEY = "processing.limits.maxElementsPerProcess";
  public static final String EXPRESSION_CHARS_KEY = "processing.limits.maxExpressionChars";

  public ModelLimits {
    if (maxNestingDepth < 3) {
      throw new IllegalArgumentException(
          NESTING_DEPTH_KEY + " must be at least 3 (a process's elements), got " + maxNestingDepth);
    }
    if (maxElementsPerProcess < 1) {
      throw new IllegalArgumentException(
          ELEMENTS_PER_PROCESS_KEY + " must be positive, got " + maxElementsPerProcess);
    }
    if (maxExpressionChars < 2) {
      throw new IllegalArgumentException(
          EXPRESSION_CHARS_KEY + " must be at least 2, got " + maxExpressionChars);
    }
  }
}
