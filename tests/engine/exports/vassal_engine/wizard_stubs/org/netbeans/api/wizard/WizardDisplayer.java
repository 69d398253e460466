package org.netbeans.api.wizard;

/** A stand-in: VASSAL's new-game wizard is never shown by the test harness. */
public abstract class WizardDisplayer {
}
