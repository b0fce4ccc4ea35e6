package io.tern.engine;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.tern.engine.processor.CommandProcessor;
import org.junit.jupiter.api.Test;

/**
 * No package cycles: among the engine's top-level packages, and among the feature packages of its
 * command processing ({@code workflow/processing}), where one feature could once not be changed
 * without reading all the others (issue 46). The processing packages form layers: {@code common}
 * (the partition's state, sender, metrics) at the bottom, {@code behavior} (what several features
 * do, such as terminating an element or subscribing to its events) above it, the features'
 * processors and appliers above that, and the wiring ({@code WorkflowEngine}, in the package
 * itself) on top.
 */
class PackageCyclesTest {
  private static final String PROCESSING = "io.tern.engine.workflow.processing";

  private static final JavaClasses ENGINE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.tern.engine");

  @Test
  void theEnginesTopLevelPackagesHaveNoCycle() {
    slices().matching("io.tern.engine.(*)..").should().beFreeOfCycles().check(ENGINE);
  }

  /**
   * The protocol (value types and intents, the codes of the log and the wire) is the bottom of the
   * engine: every other package may use it, it uses none of them.
   */
  @Test
  void theProtocolDependsOnNoOtherEnginePackage() {
    noClasses()
        .that()
        .resideInAPackage("io.tern.engine.protocol..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.tern.engine..")
                .and(not(resideInAPackage("io.tern.engine.protocol.."))))
        .check(ENGINE);
  }

  /**
   * Nor the workflow engine's own packages: the model checks FEEL and timer expressions at
   * deployment, so FEEL and the timer schedule know nothing of the model.
   */
  @Test
  void theWorkflowPackagesHaveNoCycle() {
    slices().matching("io.tern.engine.workflow.(*)..").should().beFreeOfCycles().check(ENGINE);
  }

  @Test
  void theProcessingPackagesHaveNoCycle() {
    slices().matching("..workflow.processing.(*)..").should().beFreeOfCycles().check(ENGINE);
  }

  /**
   * The slices above leave out the classes of {@code processing} itself: they are the wiring, which
   * builds every feature, so none may be used by a feature (or it would close a cycle unseen).
   */
  @Test
  void noFeatureUsesTheWiring() {
    noClasses()
        .that()
        .resideInAPackage(PROCESSING + ".*..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(PROCESSING)
        .check(ENGINE);
  }

  /** The behaviour layer has layers of its own: termination uses catch events, not the reverse. */
  @Test
  void theBehaviourPackagesHaveNoCycle() {
    slices()
        .matching("..workflow.processing.behavior.(*)..")
        .should()
        .beFreeOfCycles()
        .check(ENGINE);
  }

  /**
   * {@code Behaviors} builds every behaviour, so no behaviour may use it (a cycle unseen above).
   */
  @Test
  void noBehaviourUsesTheirBundle() {
    noClasses()
        .that()
        .resideInAPackage(PROCESSING + ".behavior.*..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(PROCESSING + ".behavior")
        .check(ENGINE);
  }

  /**
   * One package per element family (container, event, gateway, task, multi-instance) above what
   * they share ({@code lifecycle}); only {@code ElementProcessor}, above them all, knows every
   * family.
   */
  @Test
  void theElementFamiliesHaveNoCycle() {
    slices()
        .matching("..workflow.processing.elements.(*)..")
        .should()
        .beFreeOfCycles()
        .check(ENGINE);
    noClasses()
        .that()
        .resideInAPackage(PROCESSING + ".elements.*..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(PROCESSING + ".elements")
        .check(ENGINE);
  }

  @Test
  void behavioursNeverUseProcessors() {
    noClasses()
        .that()
        .resideInAPackage(PROCESSING + ".behavior..")
        .should()
        .dependOnClassesThat(
            assignableTo(CommandProcessor.class)
                .or(simpleNameEndingWith("Processor"))
                .or(simpleNameEndingWith("Processors")))
        .check(ENGINE);
  }

  /** Behaviours use only the layer below them (and the rest of the engine): no feature's code. */
  @Test
  void behavioursUseOnlyCommon() {
    classes()
        .that()
        .resideInAPackage(PROCESSING + ".behavior..")
        .should()
        .onlyDependOnClassesThat(
            not(resideInAPackage(PROCESSING + ".."))
                .or(resideInAnyPackage(PROCESSING + ".behavior..", PROCESSING + ".common..")))
        .check(ENGINE);
  }
}
