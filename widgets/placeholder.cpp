// SPDX-License-Identifier: MIT
// placeholder until the timeline widgets land
namespace npuscope::widgets {}
