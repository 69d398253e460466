/*
 * Compile-time stub of VASSAL 3.7.26's class of this name (vassal-app/src/main/java, tag 3.7.26), holding only
 * the members Hexside's LOS extension uses, with their exact signatures. VASSAL is Copyright (c) 2000-2024 by
 * Rodney Kinney, Joel Uckelman, Brian Reynolds and the VASSAL developers, under the GNU LGPL 2.1 (LICENSE here).
 * Never shipped: in VASSAL the real class is loaded.
 */
package VASSAL.build.module.map;

import java.awt.Graphics;
import java.awt.Point;
import java.awt.event.MouseEvent;
import VASSAL.build.module.Map;

public class LOS_Thread {
  protected Map map;
  protected Point anchor;
  protected Point arrow;
  protected boolean visible;
  protected boolean persisting;
  protected boolean mirroring;
  protected boolean initializing;

  public void draw(Graphics g, Map m) {
    throw new UnsupportedOperationException("stub");
  }

  public void mouseReleased(MouseEvent e) {
    throw new UnsupportedOperationException("stub");
  }

  public void mouseDragged(MouseEvent e) {
    throw new UnsupportedOperationException("stub");
  }

  protected int getLosCheckCount() {
    throw new UnsupportedOperationException("stub");
  }
}
