package io.tern.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Random appends of configuration entries, truncations, compactions and snapshot installs against a
 * model that keeps every configuration entry the log holds: the configuration in force at each
 * index is the last one at or before it, or the base.
 */
class MembershipLogPropertyTest {
  private static final Membership BOOTSTRAP =
      Membership.ofVoters(List.of(new Member(1, 1), new Member(2, 1), new Member(3, 1)));

  private record Entry(long index, Membership membership) {}

  @Property(tries = 50)
  void theConfigurationAtEachIndexIsTheLastOneAppendedAtOrBeforeIt(@ForAll long seed) {
    Random random = new Random(seed);
    MembershipLog log = new MembershipLog(0, BOOTSTRAP);
    List<Entry> model = new ArrayList<>();
    long baseIndex = 0;
    Membership base = BOOTSTRAP;
    long lastIndex = 0;
    for (int step = 0; step < 500; step++) {
      int choice = random.nextInt(100);
      if (choice < 40) {
        lastIndex += 1 + random.nextInt(3); // other entries in between
        Membership next = change(current(model, base), random);
        log.appended(lastIndex, next);
        model.add(new Entry(lastIndex, next));
      } else if (choice < 65) {
        long to = baseIndex + (long) (random.nextDouble() * (lastIndex - baseIndex + 1));
        boolean changed = log.truncatedAfter(to);
        boolean expected = model.removeIf(entry -> entry.index() > to);
        assertThat(changed).isEqualTo(expected);
        lastIndex = to;
      } else if (choice < 85) {
        long to = baseIndex + (long) (random.nextDouble() * (lastIndex - baseIndex + 1));
        Membership atTo = at(model, base, baseIndex, to);
        log.compactedTo(to);
        model.removeIf(entry -> entry.index() <= to);
        baseIndex = to;
        base = atTo;
      } else if (choice < 88) {
        baseIndex = lastIndex + random.nextInt(5);
        lastIndex = baseIndex;
        base = change(current(model, base), random);
        model.clear();
        log.reset(baseIndex, base);
      }
      assertThat(log.current()).isEqualTo(current(model, base));
      assertThat(log.lastChangeIndex())
          .isEqualTo(model.isEmpty() ? baseIndex : model.get(model.size() - 1).index());
      for (long index = baseIndex; index <= lastIndex; index++) {
        assertThat(log.at(index)).as("at %d", index).isEqualTo(at(model, base, baseIndex, index));
      }
    }
  }

  @Test
  void refusesWhatCannotHappen() {
    MembershipLog log = new MembershipLog(10, BOOTSTRAP);
    log.appended(12, BOOTSTRAP.apply(ConfigChange.remove(3)));

    assertThatThrownBy(() -> log.at(9)).hasMessageContaining("compacted");
    assertThatThrownBy(() -> log.appended(12, BOOTSTRAP)).hasMessageContaining("does not follow");
    assertThatThrownBy(() -> log.truncatedAfter(9)).hasMessageContaining("below");
  }

  @Test
  void membershipRefusesInvalidChangesAndBadEncodings() {
    assertThatThrownBy(() -> BOOTSTRAP.apply(ConfigChange.addLearner(new Member(2, 1))))
        .hasMessageContaining("member already");
    assertThatThrownBy(() -> BOOTSTRAP.apply(ConfigChange.promote(2)))
        .hasMessageContaining("not a learner");
    assertThatThrownBy(() -> BOOTSTRAP.apply(ConfigChange.remove(9)))
        .hasMessageContaining("not a member");
    Membership one = Membership.ofVoters(List.of(new Member(1, 1)));
    assertThatThrownBy(() -> one.apply(ConfigChange.remove(1))).hasMessageContaining("last voter");
    byte[] encoded = BOOTSTRAP.encode();
    assertThatThrownBy(() -> Membership.decode(java.util.Arrays.copyOf(encoded, 5)))
        .hasMessageContaining("truncated");
    encoded[0] = 9;
    assertThatThrownBy(() -> Membership.decode(encoded)).hasMessageContaining("version");
    assertThatThrownBy(() -> new Membership(List.of(new Member(1, 1)), List.of(new Member(1, 1))))
        .hasMessageContaining("twice");
  }

  private static Membership current(List<Entry> model, Membership base) {
    return model.isEmpty() ? base : model.get(model.size() - 1).membership();
  }

  private static Membership at(List<Entry> model, Membership base, long baseIndex, long index) {
    Membership found = base;
    for (Entry entry : model) {
      if (entry.index() <= index) {
        found = entry.membership();
      }
    }
    return found;
  }

  /** A random valid single-member change of {@code membership}. */
  private static Membership change(Membership membership, Random random) {
    for (int attempt = 0; attempt < 20; attempt++) {
      int id = 1 + random.nextInt(6);
      ConfigChange change =
          switch (random.nextInt(3)) {
            case 0 -> ConfigChange.addLearner(new Member(id, 1));
            case 1 -> ConfigChange.promote(id);
            default -> ConfigChange.remove(id);
          };
      try {
        return membership.apply(change);
      } catch (IllegalArgumentException invalid) {
        // try another
      }
    }
    return membership;
  }
}
