#pragma once
// precis-verify's verdict on stdout (text or JSON; statistics on stderr) and the
// verdict's witness (--witness), in report.cpp.

#include <string>

#include "analyses.hpp"
#include "config.hpp"
#include "model.hpp"
#include "precis/certify/certificate.hpp"
#include "precis/core/result.hpp"

namespace precis_cli {

// Prints the verdict (text or JSON), writes the witness if --witness asks for one, and
// returns the exit code. Under a watchdog it first claims the output (or waits for the
// watchdog to end the process).
int report(const Model& model, const RunContext& ctx, const precis::VerificationResult& r,
           const precis::Certificate* cert = nullptr);

// The report when the run ends by a limit outside any analysis (front end, watchdog).
std::string unknown_report(const Config& cfg, const std::string& reason, bool is_task);

}  // namespace precis_cli
