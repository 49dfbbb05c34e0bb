// SPDX-License-Identifier: MIT
namespace npuscope {}
