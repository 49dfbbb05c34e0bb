// SPDX-License-Identifier: MIT
#pragma once
// Qt meta-type declarations for the core value types used in widget signals (queued connections,
// QSignalSpy, QVariant). Include this before declaring any signal that carries them.

#include <QMetaType>

#include "core/base/types.h"

Q_DECLARE_METATYPE(npuscope::core::SliceRef)
Q_DECLARE_METATYPE(npuscope::core::TimeRange)
