package org.netbeans.spi.wizard;

/** A stand-in: VASSAL's new-game wizard is never shown by the test harness. */
public class WizardPage extends javax.swing.JPanel {
  /** A stand-in. */
  public interface WizardResultProducer {
  }
}
