package io.tern.engine.workflow.feel;

import java.math.BigDecimal;
import org.camunda.feel.impl.interpreter.EvalContext;
import org.camunda.feel.impl.interpreter.FeelInterpreter;
import org.camunda.feel.syntaxtree.Addition;
import org.camunda.feel.syntaxtree.EveryItem;
import org.camunda.feel.syntaxtree.Exp;
import org.camunda.feel.syntaxtree.For;
import org.camunda.feel.syntaxtree.FunctionInvocation;
import org.camunda.feel.syntaxtree.IterationContext;
import org.camunda.feel.syntaxtree.QualifiedFunctionInvocation;
import org.camunda.feel.syntaxtree.SomeItem;
import org.camunda.feel.syntaxtree.Val;
import org.camunda.feel.syntaxtree.ValList;
import org.camunda.feel.syntaxtree.ValNumber;
import org.camunda.feel.syntaxtree.ValString;
import scala.Tuple2;
import scala.collection.immutable.List;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The FEEL engine's interpreter, charging a {@link FeelBudget.Meter} as it goes: the interpreter
 * evaluates every node through {@link #eval}, so this sees them all. Outside {@link
 * FeelBudget#evaluate} (no meter) it is the plain interpreter.
 *
 * <p>Ranges and the combinations of several iterators are charged before the engine builds them (it
 * builds them whole, as lists), by counting what they would hold: otherwise one step could allocate
 * three hundred million numbers.
 */
final class MeteredInterpreter extends FeelInterpreter {
  static final ThreadLocal<FeelBudget.Meter> CURRENT = new ThreadLocal<>();

  MeteredInterpreter(org.camunda.feel.valuemapper.ValueMapper valueMapper) {
    super(valueMapper);
  }

  @Override
  public Val eval(Exp expression, EvalContext context) {
    FeelBudget.Meter meter = CURRENT.get();
    if (meter == null) {
      return super.eval(expression, context);
    }
    meter.enter(expression);
    try {
      meter.charge(1, "a step per expression evaluated");
      if (expression instanceof IterationContext range) {
        chargeRange(range, context, meter);
      } else if (expression instanceof For loop) {
        chargeCombinations(loop.iterators(), context, meter);
      } else if (expression instanceof SomeItem some) {
        chargeCombinations(some.iterators(), context, meter);
      } else if (expression instanceof EveryItem every) {
        chargeCombinations(every.iterators(), context, meter);
      }
      Val value = super.eval(expression, context);
      if (expression instanceof FunctionInvocation
          || expression instanceof QualifiedFunctionInvocation
          || expression instanceof Addition) {
        chargeMade(value, meter);
      }
      return value;
    } finally {
      meter.exit();
    }
  }

  /** {@code start..end} in a {@code for}: one step per number it holds. */
  private void chargeRange(IterationContext range, EvalContext context, FeelBudget.Meter meter) {
    Val start = eval(range.start(), context);
    Val end = eval(range.end(), context);
    if (start instanceof ValNumber from && end instanceof ValNumber to) {
      BigDecimal items = to.value().bigDecimal().subtract(from.value().bigDecimal()).abs();
      meter.charge(
          items.min(BigDecimal.valueOf(Long.MAX_VALUE / 2)).longValue() + 1,
          "the range " + from.value() + ".." + to.value());
    }
  }

  /**
   * {@code for a in A, b in B}: the engine builds every combination before it evaluates the body,
   * so count them first, a step each, evaluating the iterators as the engine will (a later one may
   * use an earlier one's item). Counting stops as soon as the budget is spent.
   */
  private void chargeCombinations(
      List<Tuple2<String, Exp>> iterators, EvalContext context, FeelBudget.Meter meter) {
    if (iterators.size() > 1) {
      count(CollectionConverters.asJava(iterators), 0, context, meter);
    }
  }

  private void count(
      java.util.List<Tuple2<String, Exp>> iterators,
      int index,
      EvalContext context,
      FeelBudget.Meter meter) {
    Val items = eval(iterators.get(index)._2(), context);
    if (!(items instanceof ValList list)) {
      return; // the engine reports it
    }
    if (index == iterators.size() - 1) {
      meter.charge(list.items().size(), "the combinations of a loop's iterators");
      return;
    }
    String name = iterators.get(index)._1();
    scala.collection.Iterator<Val> each = list.items().iterator();
    while (each.hasNext()) {
      count(iterators, index + 1, context.add(new Tuple2<>(name, each.next())), meter);
    }
  }

  /** A list or string a function or an addition made: its size, before the next one doubles it. */
  private static void chargeMade(Val value, FeelBudget.Meter meter) {
    if (value instanceof ValString string) {
      meter.charge(string.value().length() / FeelBudget.CHARS_PER_STEP, "a string's length");
    } else if (value instanceof ValList list) {
      meter.charge(list.itemsAsSeq().size(), "a list's items");
    }
  }
}
