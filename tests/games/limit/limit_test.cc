#include <gtest/gtest.h>
#include "engine/core/registry.h"
TEST(Limit, Loads) { ASSERT_TRUE(plateau::engine::Registry::LoadAll().ok()); }
