package io.tern.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple3;

/**
 * Random puts, deletes, commits and rollbacks against a sorted map: after every step, point reads
 * and a full scan through the transaction equal the model, committed state included.
 */
class ColumnFamilyModelTest {
  enum Op {
    PUT,
    DELETE,
    COMMIT,
    ROLLBACK
  }

  @Provide
  Arbitrary<List<Tuple3<Op, Long, Long>>> operations() {
    Arbitrary<Op> op =
        Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.just(Op.PUT)),
            Tuple.of(3, Arbitraries.just(Op.DELETE)),
            Tuple.of(1, Arbitraries.just(Op.COMMIT)),
            Tuple.of(1, Arbitraries.just(Op.ROLLBACK)));
    Arbitrary<Long> key = Arbitraries.longs().between(-20, 20);
    Arbitrary<Long> value = Arbitraries.longs();
    return net.jqwik.api.Combinators.combine(op, key, value).as(Tuple::of).list().ofMaxSize(60);
  }

  @Property(tries = 40)
  void readsAndScansMatchASortedMap(@ForAll("operations") List<Tuple3<Op, Long, Long>> ops)
      throws Exception {
    Path dir = Files.createTempDirectory("tern-state-model");
    try (StateResources resources =
            new StateResources(StateConfig.defaults().withMemoryLimitMb(32));
        PartitionState state = new PartitionState(dir, resources)) {
      ColumnFamily<DbLong, DbLong> family =
          state.columnFamily((short) 3, new DbLong(), new DbLong());
      ColumnFamily<DbLong, DbLong> neighbour =
          state.columnFamily((short) 4, new DbLong(), new DbLong());
      neighbour.put(new DbLong(0), new DbLong(-1)); // must never show up in the family's scans
      TreeMap<Long, Long> committed = new TreeMap<>();
      TreeMap<Long, Long> current = new TreeMap<>();
      for (Tuple3<Op, Long, Long> step : ops) {
        switch (step.get1()) {
          case PUT -> {
            family.put(new DbLong(step.get2()), new DbLong(step.get3()));
            current.put(step.get2(), step.get3());
          }
          case DELETE -> {
            family.delete(new DbLong(step.get2()));
            current.remove(step.get2());
          }
          case COMMIT -> {
            state.transaction().commit();
            committed = new TreeMap<>(current);
          }
          case ROLLBACK -> {
            state.transaction().rollback();
            current = new TreeMap<>(committed);
            neighbour.put(new DbLong(0), new DbLong(-1));
          }
        }
        List<Long> scanned = new ArrayList<>();
        TreeMap<Long, Long> expected = current;
        family.forEach(
            (key, value) -> {
              assertThat(value.get()).isEqualTo(expected.get(key.get()));
              return scanned.add(key.get());
            });
        assertThat(scanned).isEqualTo(new ArrayList<>(current.keySet()));
        DbLong read = new DbLong();
        assertThat(family.get(new DbLong(step.get2()), read))
            .isEqualTo(current.containsKey(step.get2()));
      }
    } finally {
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
