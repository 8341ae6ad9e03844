// The registry of running jobs, for the environment's cleanup hook.
#include "bindings/job.h"

#include <set>

namespace dd::bindings {

namespace {
std::mutex g_jobs_mu;
std::set<std::shared_ptr<JobBase>> g_jobs;
}  // namespace

void TrackJob(const std::shared_ptr<JobBase>& job) {
  std::lock_guard<std::mutex> lk(g_jobs_mu);
  g_jobs.insert(job);
}

void ForgetJob(const std::shared_ptr<JobBase>& job) {
  std::lock_guard<std::mutex> lk(g_jobs_mu);
  g_jobs.erase(job);
}

void RegisterCleanup(Napi::Env env) {
  env.AddCleanupHook([] {
    std::set<std::shared_ptr<JobBase>> jobs;
    {
      std::lock_guard<std::mutex> lk(g_jobs_mu);
      jobs.swap(g_jobs);
    }
    for (auto& j : jobs) {
      j->cancel = true;
      if (j->thread.joinable()) j->thread.join();
    }
  });
}

}  // namespace dd::bindings
