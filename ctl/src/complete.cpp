// SPDX-License-Identifier: GPL-2.0
#include "complete.hpp"

#include <algorithm>
#include <optional>

#include "cli.hpp"
#include "usage_text.hpp"

namespace rdmactl {

namespace {

bool is_option(const std::string &word)
{
    return word.size() > 1 && word[0] == '-';
}

bool is_placeholder(const std::string &word)
{
    return !word.empty() &&
           std::all_of(word.begin(), word.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// The object a word names: exactly, or as a prefix of one object's names.
const ObjectInfo *find_object(const std::vector<ObjectInfo> &table, const std::string &word)
{
    const ObjectInfo *found = nullptr;
    for (const ObjectInfo &object : table) {
        for (const std::string &name : object.names) {
            if (name == word)
                return &object;
            if (!word.empty() && starts_with(name, word)) {
                if (found && found != &object)
                    return nullptr; // ambiguous
                found = &object;
            }
        }
    }
    return found;
}

// The verb or the setting a word names: exactly, or as a unique prefix.
template <typename T> const T *find_named(const std::vector<T> &list, const std::string &word)
{
    const T *found = nullptr;
    for (const T &item : list) {
        if (item.name == word)
            return &item;
        if (!word.empty() && starts_with(item.name, word)) {
            if (found)
                return nullptr;
            found = &item;
        }
    }
    return found;
}

bool has_own_options(Object object)
{
    return object == Object::Ping || object == Object::Monitor;
}

// The options of rdmactl, or of ping and monitor once they are the object.
std::vector<UsageOption> options_of(const ObjectInfo *object)
{
    return usage_options(usage(object && has_own_options(object->object) ? object->object
                                                                          : Object::None));
}

// When the word before is an option that takes a value.
std::optional<UsageOption> option_needing_value(const std::vector<UsageOption> &options,
                                                const std::string &word)
{
    for (const UsageOption &opt : options) {
        if (!opt.metavar.empty() &&
            std::find(opt.names.begin(), opt.names.end(), word) != opt.names.end())
            return opt;
    }
    return std::nullopt;
}

class Completer {
public:
    Completer(const std::vector<std::string> &words, size_t cword, const CompleteLookup &lookup)
        : table_(command_table()), lookup_(lookup),
          cur_(cword < words.size() ? words[cword] : std::string())
    {
        read_words(words, cword);
    }

    std::vector<std::string> run()
    {
        if (value_of_) {
            if (value_of_->metavar == "FILE")
                return {complete_files};
            return {};
        }
        if (is_option(cur_) || cur_ == "-") {
            std::vector<std::string> names;
            for (const UsageOption &opt : options_of(object_))
                names.insert(names.end(), opt.names.begin(), opt.names.end());
            return matching(names);
        }
        return matching(positional_candidates());
    }

private:
    // The positional words before the current one, skipping options and
    // the values of those that take one.
    void read_words(const std::vector<std::string> &words, size_t cword)
    {
        for (size_t i = 0; i < cword && i < words.size(); i++) {
            const std::string &word = words[i];
            value_of_.reset();
            if (is_option(word)) {
                value_of_ = option_needing_value(options_of(object_), word);
                if (value_of_ && i + 1 < cword) {
                    i++; // its value
                    value_of_.reset();
                }
                continue;
            }
            positional_.push_back(word);
            if (positional_.size() == 1)
                object_ = find_object(table_, word);
        }
    }

    std::vector<std::string> positional_candidates() const
    {
        if (positional_.empty()) {
            std::vector<std::string> names;
            for (const ObjectInfo &object : table_)
                names.push_back(object.names.front());
            names.push_back("help");
            return names;
        }
        if (positional_[0] == "help") {
            if (positional_.size() > 1)
                return {};
            std::vector<std::string> names;
            for (const ObjectInfo &object : table_)
                names.push_back(object.names.front());
            return names;
        }
        if (!object_)
            return {};
        if (has_own_options(object_->object))
            return positional_.size() == 1 ? std::vector<std::string>{"help"}
                                           : std::vector<std::string>{};
        if (positional_.size() == 1) {
            std::vector<std::string> names;
            for (const VerbInfo &verb : object_->verbs)
                names.push_back(verb.name);
            return names;
        }
        const VerbInfo *verb = find_named(object_->verbs, positional_[1]);
        size_t arg = positional_.size() - 2;
        if (!verb)
            return {};
        if (arg >= verb->arg_slots.size())
            return setting_candidates(*verb, 2 + verb->arg_slots.size());
        std::vector<std::string> names;
        for (const std::string &word : verb->arg_slots[arg]) {
            if (!is_placeholder(word)) {
                names.push_back(word);
                continue;
            }
            std::vector<std::string> values = lookup_ ? lookup_(word) : std::vector<std::string>{};
            names.insert(names.end(), values.begin(), values.end());
        }
        return names;
    }

    // After a verb's arguments (from positional_[first] on): a key not
    // given yet, or the values of the key just before.
    std::vector<std::string> setting_candidates(const VerbInfo &verb, size_t first) const
    {
        std::vector<std::string> given(positional_.begin() + first, positional_.end());
        if (given.size() % 2) {
            const KeyInfo *key = find_named(verb.keys, given.back());
            return key ? key->values : std::vector<std::string>{};
        }
        std::vector<std::string> names;
        for (const KeyInfo &key : verb.keys) {
            bool had = false;
            for (size_t i = 0; i < given.size(); i += 2)
                had = had || find_named(verb.keys, given[i]) == &key;
            if (!had)
                names.push_back(key.name);
        }
        return names;
    }

    std::vector<std::string> matching(const std::vector<std::string> &names) const
    {
        std::vector<std::string> out;
        for (const std::string &name : names) {
            if (starts_with(name, cur_) && std::find(out.begin(), out.end(), name) == out.end())
                out.push_back(name);
        }
        return out;
    }

    std::vector<ObjectInfo> table_;
    const CompleteLookup &lookup_;
    std::string cur_;
    std::vector<std::string> positional_;
    const ObjectInfo *object_ = nullptr;
    std::optional<UsageOption> value_of_; // cur_ is the value of this option
};

} // namespace

std::vector<std::string> complete(const std::vector<std::string> &words, size_t cword,
                                  const CompleteLookup &lookup)
{
    return Completer(words, cword, lookup).run();
}

} // namespace rdmactl
