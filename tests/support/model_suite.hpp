#pragma once
// Reading verdict files (tsv with a header line) of model suites for the tests.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace precis::testing {

struct ModelCase {
  std::string name;
  std::string verdict;  // SAFE, UNSAFE, NONE
  std::string extra;    // third column: cex_len (Theta) or note (own models)
};

inline std::vector<ModelCase> read_verdicts(const std::string& path) {
  std::vector<ModelCase> out;
  std::ifstream in(path);
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    if (line.empty()) continue;
    std::istringstream ls(line);
    ModelCase c;
    std::getline(ls, c.name, '\t');
    std::getline(ls, c.verdict, '\t');
    std::getline(ls, c.extra);
    out.push_back(c);
  }
  return out;
}

}  // namespace precis::testing
