// The method families in one table: id, the keys a config's method object takes, what the
// family is, whether it runs a draft network, and the parameter its "speedup vs k / tree size"
// sweep varies. Parsing, normalization, messages, `list methods` and the page read this table.
#pragma once

#include <cstddef>
#include <string>

#include "speccalc/config.hpp"

namespace speccalc {

struct FamilySpec {
  Family family;
  const char* id;
  const char* params[10];  // the method keys besides "family" (null-terminated)
  const char* summary;
  bool draft_network;  // runs a draft network: draft_runtime / draft_tensor_parallel_size apply
  bool static_tree;    // verifies a token tree (a tree panel applies)
  const char* sweep_param;  // the size parameter the page sweeps; null: none
  int sweep_values[10];     // its values (0-terminated)
};

struct FamilyTable {
  const FamilySpec* first;
  std::size_t size;
  const FamilySpec* begin() const { return first; }
  const FamilySpec* end() const { return first + size; }
};

FamilyTable family_table();
const FamilySpec* find_family(const std::string& id);
const FamilySpec& family_spec(Family f);
// The family's name for people ("EAGLE-2", "Prompt lookup (PLD)"): what the page shows in
// place of its id.
const char* family_label(Family f);
// The same in a few characters, for a chart's axis ("SpS", "PLD", "EAGLE-2").
const char* family_short_label(Family f);
// A method key's label for people, in the family's own vocabulary ("k — drafted tokens per
// cycle", "W — lookahead window"); the key itself when it has none.
std::string param_label(Family f, const std::string& key);
// "ar, sps, ..." (which = all) or only the families that run a draft network.
std::string family_ids(bool draft_network_only = false);

}  // namespace speccalc
