#include "python/bind.h"

#include <algorithm>

namespace rl::python {

Result<Binding> bind_arguments(const std::string& name, const std::vector<Param>& params,
                               const std::vector<bool>& has_default, std::size_t positional_given,
                               const std::vector<std::string>& keywords) {
  std::size_t positional = 0, positional_required = 0;
  int var_args = -1, var_kw = -1;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].kind == ParamKind::Positional) {
      ++positional;
      if (!has_default[k]) positional_required = positional;
    }
    if (params[k].kind == ParamKind::VarArgs) var_args = static_cast<int>(k);
    if (params[k].kind == ParamKind::VarKeywords) var_kw = static_cast<int>(k);
  }
  if (positional_given > positional && var_args < 0) {
    std::size_t kw_only_given = 0;
    for (auto& n : keywords)
      for (auto& p : params) kw_only_given += p.kind == ParamKind::KeywordOnly && p.name == n;
    const std::string takes =
        positional_required < positional
            ? "from " + std::to_string(positional_required) + " to " + std::to_string(positional)
            : std::to_string(positional);
    std::string given = std::to_string(positional_given);
    if (kw_only_given)
      given += " positional argument" + std::string(positional_given == 1 ? "" : "s") + " (and " +
               std::to_string(kw_only_given) + " keyword-only argument" +
               (kw_only_given == 1 ? "" : "s") + ")";
    return Result<Binding>::failure(
        name + "() takes " + takes + " positional argument" +
        (positional == 1 && positional_required == positional ? "" : "s") + " but " + given +
        (positional_given == 1 && !kw_only_given ? " was" : " were") + " given");
  }
  Binding b;
  b.params.resize(params.size());
  for (std::size_t k = 0; k < positional_given && k < positional; ++k)
    b.params[k] = {ArgSource::Positional, k};
  if (var_args >= 0)
    b.params[static_cast<std::size_t>(var_args)] = {ArgSource::VarArgs,
                                                    std::min(positional, positional_given)};
  for (std::size_t j = 0; j < keywords.size(); ++j) {
    const std::string& n = keywords[j];
    std::size_t k = 0;
    while (k < params.size() &&
           !(params[k].name == n &&
             (params[k].kind == ParamKind::Positional || params[k].kind == ParamKind::KeywordOnly)))
      ++k;
    if (k == params.size()) {
      if (var_kw < 0)
        return Result<Binding>::failure(name + "() got an unexpected keyword argument '" + n + "'");
      b.extra_keywords.push_back(j);
      continue;
    }
    if (b.params[k].kind != ArgSource::Missing)
      return Result<Binding>::failure(name + "() got multiple values for argument '" + n + "'");
    b.params[k] = {ArgSource::Keyword, j};
  }
  if (var_kw >= 0) b.params[static_cast<std::size_t>(var_kw)].kind = ArgSource::VarKeywords;
  for (std::size_t k = 0; k < params.size(); ++k)
    if (b.params[k].kind == ArgSource::Missing) {
      if (has_default[k])
        b.params[k].kind = ArgSource::Default;
      else
        (params[k].kind == ParamKind::KeywordOnly ? b.missing_keyword_only : b.missing)
            .push_back(k);
    }
  return Result<Binding>::success(std::move(b));
}

std::string missing_message(const std::string& name, const std::vector<Param>& params,
                            const Binding& b) {
  for (const auto* m : {&b.missing, &b.missing_keyword_only}) {
    if (m->empty()) continue;
    std::string list;
    for (std::size_t k = 0; k < m->size(); ++k)
      list += (k ? (k + 1 == m->size() ? (m->size() > 2 ? ", and " : " and ") : ", ") : "") +
              ("'" + params[(*m)[k]].name + "'");
    return name + "() missing " + std::to_string(m->size()) + " required " +
           (m == &b.missing ? "positional" : "keyword-only") + " argument" +
           (m->size() == 1 ? "" : "s") + ": " + list;
  }
  return "";
}

}  // namespace rl::python
