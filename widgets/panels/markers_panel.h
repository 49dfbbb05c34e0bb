// SPDX-License-Identifier: MIT
#pragma once
// The Markers dock: the user's point and range markers (widgets/timeline/markers.h) in a list.
// A click shows the marker on the timeline; the name is edited in place (double-click, F2 or
// Rename); Colour… picks its colour; Delete (or the Delete key) removes it.

#include <QWidget>

#include "widgets/view_state.h"

class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace npuscope::widgets {

class MarkerList;

/// Lists `markers` (the timeline's, TimelineWidget::markers()) and edits them. To show one it
/// emits markerActivated (the main window calls TimelineWidget::revealMarker); times are shown
/// relative to the start of `state`'s profile. Both pointers must outlive the panel.
class MarkersPanel : public QWidget {
  Q_OBJECT

 public:
  MarkersPanel(ViewState* state, MarkerList* markers, QWidget* parent = nullptr);

  /// The list (for tests): one top-level item per marker, in the list's order.
  [[nodiscard]] QTreeWidget* list() const { return m_list; }
  /// The index of the current marker, or -1.
  [[nodiscard]] int currentMarker() const;
  /// Deletes / starts renaming the current marker (the buttons and keys do this).
  void deleteCurrent();
  void renameCurrent();
  /// Asks for a colour (QColorDialog) and applies it to the current marker.
  void recolorCurrent();

 signals:
  /// Marker `index` was clicked or chosen with the keyboard.
  void markerActivated(int index);

 private:
  void rebuild();
  void updateButtons();

  ViewState* m_state;
  MarkerList* m_markers;
  QTreeWidget* m_list = nullptr;
  QPushButton* m_rename = nullptr;
  QPushButton* m_recolor = nullptr;
  QPushButton* m_delete = nullptr;
  bool m_rebuilding = false;
};

}  // namespace npuscope::widgets
